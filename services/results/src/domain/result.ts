export { RESULT_SORTS, type ResultFilter, type ResultRecord, type ResultSort } from '../data-access/records';
