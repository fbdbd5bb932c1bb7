/** The round menu button's classes, shared by the menu and its loading stand-in. */
export const menuButtonClass =
  'inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-brand text-white shadow-sm hover:bg-brand-strong';
