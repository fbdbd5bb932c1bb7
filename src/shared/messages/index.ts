import { account } from './account';
import { admin } from './admin';
import { auth } from './auth';
import { cards } from './cards';
import { cardUi } from './card-ui';
import { common } from './common';
import { enrolment } from './enrolment';
import { help } from './help';
import { mail } from './mail';
import { members } from './members';
import { mfa } from './mfa';
import { offline } from './offline';
import { popups } from './popups';
import { server } from './server';
import { voice } from './voice';

/**
 * The message catalogue: every user-visible string, English by default.
 * Each area keeps its own file; a translation supplies the same shape.
 */
export const messages = {
  common,
  auth,
  members,
  voice,
  help,
  popups,
  admin,
  enrolment,
  mail,
  account,
  mfa,
  cards,
  cardUi,
  offline,
  server,
} as const;
export type Messages = typeof messages;
