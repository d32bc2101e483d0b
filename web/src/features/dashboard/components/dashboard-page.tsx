import { Link } from 'react-router-dom';
import { BarChart3, ClipboardList, UserPlus } from 'lucide-react';
import { Card } from '../../../components/ui';

export function DashboardPage() {
  return (
    <div className="stack">
      <Card title="Quick Actions">
        <div className="quick-actions">
          <Link to="/admin/students" className="quick-action">
            <UserPlus size={22} aria-hidden="true" />
            <span>Invite Students</span>
          </Link>
          <Link to="/admin/assessments" className="quick-action">
            <ClipboardList size={22} aria-hidden="true" />
            <span>Manage Assessment</span>
          </Link>
          <Link to="/admin/results" className="quick-action">
            <BarChart3 size={22} aria-hidden="true" />
            <span>View All Results</span>
          </Link>
        </div>
      </Card>
    </div>
  );
}
