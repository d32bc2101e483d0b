import { stopShared } from './shared-product';

export default stopShared;
