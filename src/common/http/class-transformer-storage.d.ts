/** class-transformer's metadata store (the one its decorators write to), which the package does not type at this path. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
