import { eventOperations } from './events';
import { fileOperations } from './files';
import { flowOperations } from './flow';
import { ltiLaunchOperations } from './lti-launch';

/**
 * The student's own pages, by invitation token: the flow, its answer files and its event stream; first, the way in
 * from an LMS, which leads to them.
 */
export const studentPages = {
  ...ltiLaunchOperations,
  ...flowOperations,
  ...fileOperations,
  ...eventOperations,
};
