import { useNavigate } from 'react-router-dom';
import { ArrowLeft, Compass, Home } from 'lucide-react';
import { Button, ButtonLink } from '../../../components/ui';

/** The words of a 404 page, in the language of the app that shows it. */
export interface NotFoundWords {
  title: string;
  text: string;
  home: string;
  back: string;
}

/** A 404 page: what the admin app and the student pages both show, each in its own words. */
export function NotFoundView({ words }: { words: NotFoundWords }) {
  const navigate = useNavigate();
  return (
    <main className="full-page-center">
      <div className="not-found">
        <div className="not-found__icon" aria-hidden="true">
          <Compass size={40} />
        </div>
        <p className="not-found__code">404</p>
        <h1 className="not-found__title">{words.title}</h1>
        <p className="muted">{words.text}</p>
        <div className="not-found__actions">
          <ButtonLink to="/" icon={<Home size={18} aria-hidden="true" />}>
            {words.home}
          </ButtonLink>
          <Button
            variant="secondary"
            icon={<ArrowLeft size={18} aria-hidden="true" className="rtl-flip" />}
            onClick={() => navigate(-1)}
          >
            {words.back}
          </Button>
        </div>
      </div>
    </main>
  );
}
