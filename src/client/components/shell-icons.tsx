import type { SVGProps } from 'react';

/**
 * The icons of the app's first download (the header's menu button, the offline banner, the
 * error page), drawn as lucide-react draws them: its paths (ISC licence, lucide.dev) and its
 * attributes. lucide-react's icon code would be about 1.4 KiB of /login's 100 KiB of
 * JavaScript on the wire (docs/decisions/initial-js-budget.md); every other screen uses
 * lucide-react itself and loads it with its own code. Decorative: callers mark them aria-hidden.
 */
function shellIcon(paths: readonly string[]) {
  return function ShellIcon(props: SVGProps<SVGSVGElement>) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        {...props}
      >
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

/** lucide's `menu`. */
export const MenuIcon = shellIcon(['M4 5h16', 'M4 12h16', 'M4 19h16']);

/** lucide's `wifi-off`. */
export const WifiOffIcon = shellIcon([
  'M12 20h.01',
  'M8.5 16.429a5 5 0 0 1 7 0',
  'M5 12.859a10 10 0 0 1 5.17-2.69',
  'M19 12.859a10 10 0 0 0-2.007-1.523',
  'M2 8.82a15 15 0 0 1 4.177-2.643',
  'M22 8.82a15 15 0 0 0-11.288-3.764',
  'm2 2 20 20',
]);

/** lucide's `triangle-alert`. */
export const TriangleAlertIcon = shellIcon(['m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3', 'M12 9v4', 'M12 17h.01']);
