import { avatarPlaceholder } from '../rules/avatar';
import { useMediaUrl } from './useMediaUrl';
import { Icon } from './Icon';
import './ui.css';

interface AvatarProps {
  name: string;
  /** The stored picture's path; without one (or until it loads), the placeholder letter on its gradient (spec §3). */
  path?: string | null;
  size?: number;
  /** Group chats get a small group mark. */
  group?: boolean;
}

/** Decorative: the name it stands for is always written next to it, so it is hidden from screen readers. */
export function Avatar({ name, path, size = 48, group = false }: AvatarProps) {
  const placeholder = avatarPlaceholder(name);
  const url = useMediaUrl(path);
  return (
    <span className="ui-avatar" aria-hidden="true" style={{ width: size, height: size, fontSize: size * 0.42 }}>
      {url ? (
        <img src={url} alt="" width={size} height={size} />
      ) : (
        <span className="ui-avatar-letter" style={{ background: placeholder.gradient }}>
          {placeholder.letter}
        </span>
      )}
      {group && (
        <span className="ui-avatar-group">
          <Icon name="group" size={Math.max(10, Math.round(size * 0.28))} />
        </span>
      )}
    </span>
  );
}
