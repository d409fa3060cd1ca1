/** The packages module's import surface: package presets, the carriers' packaging, packaged parcels. */
export { PackagesService, isPackagedParcel, checkParcelShape, type PackagedParcelInput } from './packages.service.js';
export { PackageSchema, CarrierPackageSchema, PackagedParcelSchema, type Package } from './packages.schemas.js';
export { packagesRoutes } from './packages.routes.js';
