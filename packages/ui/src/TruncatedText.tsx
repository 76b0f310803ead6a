import { Tooltip } from '@fluentui/react-components';
import { TRUNCATE_LENGTH, truncate } from './format';

export interface TruncatedTextProps {
  text: string;
  max?: number;
  className?: string;
}

/** Text cut at `max` characters (30 by default); when cut, the whole text is in a tooltip, reachable by keyboard. */
export function TruncatedText({ text, max = TRUNCATE_LENGTH, className }: TruncatedTextProps) {
  const shown = truncate(text, max);
  if (shown === text) return <span className={className}>{text}</span>;
  return (
    <Tooltip content={text} relationship="description">
      <span className={className} tabIndex={0} aria-label={text}>
        {shown}
      </span>
    </Tooltip>
  );
}
