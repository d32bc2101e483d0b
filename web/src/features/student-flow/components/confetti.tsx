import { useMemo } from 'react';
import { useReducedMotion } from '../hooks/use-reduced-motion';

const COLOURS = ['#f4b942', '#2f5fb3', '#1e7a4f', '#b42318', '#6a3fb5', '#1f5fad'];
const PIECES = 48;

/** Falling paper for a pass; nothing at all for a visitor who asked for less motion. */
export function Confetti() {
  const reduced = useReducedMotion();
  const pieces = useMemo(
    () =>
      Array.from({ length: PIECES }, (_, i) => ({
        left: `${(i * 97) % 100}%`,
        delay: `${((i * 37) % 30) / 10}s`,
        duration: `${3 + ((i * 53) % 20) / 10}s`,
        background: COLOURS[i % COLOURS.length],
        rotate: `${(i * 47) % 360}deg`,
      })),
    [],
  );
  if (reduced) return null;
  return (
    <div className="confetti" aria-hidden="true" data-testid="confetti">
      {pieces.map((piece, i) => (
        <span
          key={i}
          className="confetti__piece"
          style={{
            left: piece.left,
            background: piece.background,
            animationDelay: piece.delay,
            animationDuration: piece.duration,
            transform: `rotate(${piece.rotate})`,
          }}
        />
      ))}
    </div>
  );
}
