import { Tooltip } from './ui/tooltip';
import { Button, type ButtonProps } from './ui/button';

/** A button that shows only an icon: `label` is its accessible name and its tooltip. */
export function IconButton({ label, variant = 'ghost', ...props }: Omit<ButtonProps, 'aria-label' | 'title' | 'size'> & { label: string }) {
  return (
    <Tooltip content={label}>
      <Button variant={variant} size="icon" aria-label={label} {...props} />
    </Tooltip>
  );
}
