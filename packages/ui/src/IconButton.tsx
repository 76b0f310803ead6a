import { Button, Tooltip, type ButtonProps } from '@fluentui/react-components';
import type { ReactElement } from 'react';

export interface IconButtonProps {
  /** The button's name, shown as its tooltip: an icon alone says nothing to a screen reader. */
  label: string;
  icon: ReactElement;
  onClick: () => void;
  disabled?: boolean;
  size?: ButtonProps['size'];
}

/** A subtle button that is only an icon, named by its tooltip. */
export function IconButton({ label, icon, onClick, disabled, size }: IconButtonProps) {
  return (
    <Tooltip content={label} relationship="label">
      <Button appearance="subtle" size={size} icon={icon} disabled={disabled} onClick={onClick} />
    </Tooltip>
  );
}
