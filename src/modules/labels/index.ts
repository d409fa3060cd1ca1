/** The labels module's import surface: pure rendering (no database, no HTTP). */
export {
  LABEL_FORMATS,
  isLabelFormat,
  labelCarrierParts,
  labelContentType,
  labelFileExtension,
  CUSTOMS_DOCUMENT_TYPES,
  isCustomsDocumentType,
  type CustomsDocumentData,
  type CustomsDocumentType,
  type LabelAddress,
  type LabelCarrierParts,
  type LabelData,
  type LabelFormat,
  type RenderedLabel,
} from './labels.types.js';
export {
  renderCustomsDocument,
  renderLabel,
  renderLabelSet,
  renderManifestDocument,
  renderPackageLabels,
  renderPackingSlip,
  stampVoid,
} from './labels.render.js';
export { createLabelRenderPool, type LabelRenderPool, type LabelRenderPoolOptions } from './labels.pool.js';
export { convertCarrierLabel, issuedLabelFormat, type CarrierLabelImage } from './labels.convert.js';
export { labelMarks, dangerousGoodsMark, SIGNATURE_MARK, ADULT_SIGNATURE_MARK, SATURDAY_MARK } from './labels.marks.js';
export { convertCarrierLabels, mergeLabelFiles } from './labels.merge.js';
export type { ManifestDocumentData } from './labels.manifest.js';
export type { PackingSlipData } from './labels.packing-slip.js';
