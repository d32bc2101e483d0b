import { useId } from 'react';
import { Search } from 'lucide-react';

interface SearchInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
}

export function SearchInput({ label, value, onChange, placeholder }: SearchInputProps) {
  const id = useId();
  return (
    <div className="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Search className="search__icon" size={18} aria-hidden="true" />
      <input
        id={id}
        type="search"
        className="input search__input"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** SPEC §5: case-insensitive substring match on name or e-mail. */
export function matchesNameOrEmail(item: { name: string; email: string }, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return item.name.toLowerCase().includes(q) || item.email.toLowerCase().includes(q);
}
