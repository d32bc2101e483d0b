import { useEffect, useRef } from 'react';
import { notifyFailure } from '../../../lib/toast';

/**
 * Reports a polled query's failure once, not at every poll (with `text`: the poll's answer says nothing the admin
 * can act on); an answer in between re-arms the report.
 */
export function useReportedOnce(error: unknown, text: string): void {
  const reported = useRef(false);
  useEffect(() => {
    if (!error) {
      reported.current = false;
    } else if (!reported.current) {
      reported.current = true;
      notifyFailure(error, text, { serverMessage: false });
    }
  }, [error, text]);
}
