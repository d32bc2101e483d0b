/*
 * Data retention in a real browser against the product as `make start` runs it: the seeded super admin opens Admin
 * Management → Data retention, runs the dry run, switches retention on through the confirmation and off again. The
 * section is scanned for accessibility and checked for sideways overflow at 1280 and 360 px (saved as pictures with
 * SCREENSHOTS=1).
 *
 * On the shared product: 12 months erase nobody there (every student of a run is minutes old), and the test leaves
 * retention off as it found it.
 */
import {
  DESKTOP,
  MOBILE,
  SUPER,
  atPath,
  expectAccessible,
  overflowing,
  productForFile,
  saveScreenshot,
  shown,
  signIn,
  toast,
} from './support';

jest.setTimeout(180_000);

const file = productForFile();

test('when the super admin runs the dry run, switches retention on with the count confirmed and off again, then the section follows and passes axe at 1280 and 360 px', async () => {
  const page = await file.page(DESKTOP);
  await signIn(page, SUPER.email, SUPER.password);
  await page.goto('/admin/admins');
  await page.getByRole('link', { name: 'Data retention' }).click();
  await atPath(page, '/admin/data-retention');
  await shown(page.getByRole('heading', { name: 'Data retention', level: 1 }));
  const section = page.getByRole('form', { name: 'Data retention' });
  await shown(page.getByText('Nobody is erased.'));

  await page.getByLabel('Erase students inactive for more than (months)').fill('12');
  await section.getByRole('button', { name: 'Dry run' }).click();
  await shown(page.getByText('With 12 months, nobody would be erased now.'));
  await expectAccessible(page, 'Data retention, off, after a dry run');
  expect(await overflowing(page)).toEqual([]);
  await saveScreenshot(page, 'data-retention', 'desktop');

  await page.setViewportSize(MOBILE);
  expect(await overflowing(page)).toEqual([]);
  await expectAccessible(page, 'Data retention on a phone');
  await saveScreenshot(page, 'data-retention', 'mobile');

  await section.getByRole('button', { name: 'Switch on' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch data retention on?' });
  await shown(dialog.getByText('Nobody is erased now'));
  await expectAccessible(page, 'the confirmation of data retention on a phone');
  await saveScreenshot(page, 'data-retention-confirm', 'mobile', true);
  await dialog.getByRole('button', { name: 'Switch on' }).click();
  await shown(toast(page, 'Data retention is on: 12 months'));
  await shown(page.getByText('Students inactive for more than 12 months are erased.'));

  await page.setViewportSize(DESKTOP);
  await expectAccessible(page, 'Data retention, on');
  await saveScreenshot(page, 'data-retention-on', 'desktop');
  await section.getByRole('button', { name: 'Switch off' }).click();
  await shown(toast(page, 'Data retention is off'));
  await shown(page.getByText('Nobody is erased.'));
});
