import { eventOperations } from './events';
import { fileOperations } from './files';
import { flowOperations } from './flow';

/** The student's own pages, by invitation token: the flow, its answer files and its event stream. */
export const studentPages = { ...flowOperations, ...fileOperations, ...eventOperations };
