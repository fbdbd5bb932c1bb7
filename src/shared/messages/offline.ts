/** Installable and offline (issue 11): the offline banner and notes, the new-version prompt, the menu's sign-out-and-remove. */
export const offline = {
  banner: "You're offline",
  bannerDetail: 'Showing what was saved on this device.',
  /** `when`: the time the shown information was fetched, already formatted. */
  showingFrom: (when: string) => `Offline — showing information from ${when}`,
  nothingSaved: "You're offline, and this information has not been saved on this device yet. It will show when you're back online.",
  updateAvailable: 'A new version is available',
  updateDetail: 'Reload when you are ready; anything you are typing is kept until then.',
  reload: 'Reload',
  later: 'Later',
  signOutAndRemove: 'Sign out and remove my data from this device',
} as const;
