import { Outlet } from 'react-router';
import { MemberTabBar } from './member-tab-bar';

/**
 * Every member screen: the page, then the bottom tab bar. The tab bar is fixed; pages keep
 * their last lines and sticky actions clear of it through `--tab-bar-height`, which
 * styles.css sets on the root while the tab bar is on screen.
 */
export function MemberLayout() {
  return (
    <div className="pb-[var(--tab-bar-height)]">
      <Outlet />
      <MemberTabBar />
    </div>
  );
}
