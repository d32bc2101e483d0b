import { BrowserRouter } from 'react-router-dom';
import { StudentProviders } from './providers';
import { StudentRoutes } from './routes';

export function StudentApp() {
  return (
    <StudentProviders>
      <BrowserRouter>
        <StudentRoutes />
      </BrowserRouter>
    </StudentProviders>
  );
}
