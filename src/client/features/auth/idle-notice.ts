/**
 * The sign-in page says why the member is there after an idle sign-out. Session storage: the
 * flag lives in this tab only and is read once.
 */
const IDLE_SIGN_OUT_KEY = 'wellhaven.idleSignOut';

export function markIdleSignOut(): void {
  try {
    sessionStorage.setItem(IDLE_SIGN_OUT_KEY, '1');
  } catch {
    // Storage refused: the sign-in page shows no reason, nothing worse.
  }
}

export function wasIdleSignOut(): boolean {
  try {
    return sessionStorage.getItem(IDLE_SIGN_OUT_KEY) === '1';
  } catch {
    return false;
  }
}

export function clearIdleSignOut(): void {
  try {
    sessionStorage.removeItem(IDLE_SIGN_OUT_KEY);
  } catch {
    // As above.
  }
}
