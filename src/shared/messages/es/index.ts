import type { Messages } from '../index';
// The client maps the shared schemas' English messages with it; shipped with the translation that needs it.
export { translationsBySource } from '../../i18n/by-source';
import type { Translation } from '../translation';
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

/** The Spanish catalogue (docs/spanish-glossary.md): the English catalogue's shape, every key translated. */
export const messages: Translation<Messages> = {
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
};
