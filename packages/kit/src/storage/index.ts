export {
  createObjectStore,
  isMissingObject,
  parseS3Endpoint,
  attachmentDisposition,
  sendAttachment,
  type ObjectStore,
  type ObjectStoreOptions,
  type ObjectStoreConnection,
  type ObjectStat,
  type PutOptions,
  type PutBody,
} from './object-store';
export {
  checkObjectStorage,
  objectStorageEnv,
  objectStoreConnection,
  type ObjectStorageConfig,
} from './config';
