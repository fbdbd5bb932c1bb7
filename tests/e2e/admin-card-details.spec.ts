import { sharedElevatedAdmin } from './support/admin-mfa';
import { expect, expectNoSeriousA11yViolations, registerViaApi, seedSession, test } from './support/fixtures';

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

test.describe('Admin: employer card details', () => {
  test('an admin writes the card details, sees field errors, saves, and finds them after a reload; the member card carries them', async ({ page, request }) => {
    const company = `E2E Card Corp ${unique()}`;
    const member = await registerViaApi(request, { company });
    const admin = sharedElevatedAdmin();
    const adminHeaders = { authorization: `Bearer ${admin.token}` };
    const list = await request.get(`/api/admin/employers?search=${encodeURIComponent(company)}`, { headers: adminHeaders });
    expect(list.status()).toBe(200);
    const companyId = ((await list.json()) as { employers: { id: string; name: string }[] }).employers.find((e) => e.name === company)!.id;

    await seedSession(page, admin);
    await page.goto(`/admin/employers/${companyId}`);
    const section = page.getByRole('region', { name: 'Card details' });
    await expect(section).toBeVisible();
    await expect(section.getByText('No card details yet.')).toBeVisible();

    // The shared schema checks in the browser: each error beside its field, nothing sent.
    await section.getByLabel('Rx BIN').fill('61A');
    await section.getByLabel('Member services phone').fill('call us');
    await section.getByRole('button', { name: 'Save card details' }).click();
    await expect(section.getByText('Rx BIN is 6 digits')).toBeVisible();
    await expect(section.getByText(/^Enter a phone number of 7 to 15 digits/)).toBeVisible();
    await expect(section.getByLabel('Rx BIN')).toHaveAttribute('aria-invalid', 'true');
    await expect(section.getByLabel('Rx BIN')).toBeFocused();
    await expectNoSeriousA11yViolations(page);

    const details = {
      'Plan name': 'Gold PPO',
      'Group number': 'GRP-00417',
      'Rx BIN': '610014',
      'Rx PCN': 'MEDDPRIME',
      'Rx group': 'RX7781',
      'Member services phone': '+1 (800) 555-0142',
      'Nurse line phone': '1-800-555-0199',
      'Payer ID': '60054',
      'Note on the back of the card': 'Show this card at every visit.',
    };
    for (const [label, value] of Object.entries(details)) await section.getByLabel(label, { exact: true }).fill(value);
    await section.getByRole('button', { name: 'Save card details' }).click();
    await expect(page.getByText('Card details saved', { exact: true })).toBeVisible();
    await expect(section.getByText(/^Last updated /)).toBeVisible();
    await expect(section.getByText('Rx BIN is 6 digits')).toHaveCount(0);

    await page.reload();
    const reloaded = page.getByRole('region', { name: 'Card details' });
    for (const [label, value] of Object.entries(details)) await expect(reloaded.getByLabel(label, { exact: true })).toHaveValue(value);
    await expect(reloaded.getByText(/^Last updated /)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Clearing a field takes it off the card: the member's cards carry what the admin saved.
    await reloaded.getByLabel('Payer ID').fill('');
    const saved = page.waitForResponse((res) => res.url().endsWith(`/api/admin/employers/${companyId}/card`) && res.request().method() === 'PUT');
    await reloaded.getByRole('button', { name: 'Save card details' }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText('Card details saved', { exact: true })).toBeVisible();
    const signIn = await request.post('/api/auth/signin', { data: { email: member.email, password: member.password } });
    const cards = await request.get('/api/me/cards', { headers: { authorization: `Bearer ${(await signIn.json()).token}` } });
    expect(await cards.json()).toMatchObject({
      details: { planName: 'Gold PPO', groupNumber: 'GRP-00417', rxBin: '610014', payerId: null, backNote: 'Show this card at every visit.' },
      cards: [{ kind: 'member', employer: company }],
    });
  });
});
