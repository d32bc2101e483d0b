import { startShared } from './shared-product';

export default startShared;
