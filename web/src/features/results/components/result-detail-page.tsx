import { Link, useParams } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { Card } from '../../../components/ui';

export function ResultDetailPage() {
  const { resultId } = useParams();
  return (
    <div className="stack">
      <div>
        <Link to="/admin/results" className="btn btn--secondary btn--md">
          <ArrowLeft size={18} aria-hidden="true" />
          <span>Back to Results</span>
        </Link>
      </div>
      <Card title="Student Information">
        <p className="muted">Result {resultId}</p>
      </Card>
    </div>
  );
}
