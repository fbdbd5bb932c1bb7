import { members } from '../lib/messages/members';
import { PlaceholderPage } from '../components/placeholder-page';

export type MemberPlaceholderName = keyof typeof members.placeholders;

/** A coming-soon member screen: its catalogue entry through the one placeholder template. */
export default function MemberPlaceholder({ name, backTo }: { name: MemberPlaceholderName; backTo: string }) {
  const content: { title: string; description: string; features?: readonly string[] } = members.placeholders[name];
  return <PlaceholderPage title={content.title} description={content.description} features={content.features} backTo={backTo} />;
}
