import { parentPort } from 'node:worker_threads';
import { renderCustomsDocument, renderLabel, renderLabelSet, renderPackageLabels } from './labels.render.js';
import type { CustomsDocumentData, LabelData, LabelFormat } from './labels.types.js';

/** Worker-thread entry of the label render pool (labels.pool.ts): one message, one render. */
export type RenderRequest =
  | { id: number; kind?: 'label'; set: boolean; data: LabelData[]; format: LabelFormat }
  | { id: number; kind: 'packages'; data: LabelData[]; format: LabelFormat }
  | { id: number; kind: 'customs'; document: CustomsDocumentData };

export type RenderReply =
  { id: number; ok: true; body: ArrayBuffer; content_type: string; file_extension: string } | { id: number; ok: false; name: string; message: string };

const port = parentPort;
if (!port) throw new Error('labels.worker runs only as a worker thread');

port.on('message', (req: RenderRequest) => {
  const work =
    req.kind === 'customs'
      ? renderCustomsDocument(req.document)
      : req.kind === 'packages'
        ? renderPackageLabels(req.data, req.format)
        : req.set
          ? renderLabelSet(req.data, req.format)
          : renderLabel(req.data[0]!, req.format);
  work.then(
    (r) => {
      // Hand the bytes over instead of copying them (a Buffer may be a view of a shared pool).
      const body =
        r.body.byteOffset === 0 && r.body.byteLength === r.body.buffer.byteLength
          ? (r.body.buffer as ArrayBuffer)
          : (r.body.buffer.slice(r.body.byteOffset, r.body.byteOffset + r.body.byteLength) as ArrayBuffer);
      port.postMessage({ id: req.id, ok: true, body, content_type: r.content_type, file_extension: r.file_extension } satisfies RenderReply, [body]);
    },
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      port.postMessage({ id: req.id, ok: false, name: e.name, message: e.message } satisfies RenderReply);
    },
  );
});
