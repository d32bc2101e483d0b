'use strict';
/**
 * What the certificate benchmarks share: the memory of a process tree, and the bare baseline, a puppeteer-core loop
 * rendering the certificate page with one browser and a pool of pages, nothing else.
 */
const fs = require('node:fs');
const path = require('node:path');
const puppeteer = require('puppeteer-core');
const { descendants } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const { certificateHtml } = require(path.join(ROOT, 'services/report/dist/domain/templates/certificate'));

/**
 * Memory of a process and all its descendants (a browser's), in MB: the proportional set size, so the pages
 * Chromium's processes share are counted once, not once per process; Linux only. `pids` spares a sampler the
 * walk through /proc that finds the descendants, which costs more CPU than the reading.
 */
function treePssMb(rootPid, pids = [rootPid, ...descendants(rootPid)]) {
  let kb = 0;
  for (const pid of pids) {
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return kb / 1024;
}

/** The design every benchmark certificate shares, and the i-th certificate's own fields. */
const certificateDesign = {
  assessmentTitle: 'Distance Learning Readiness',
  verificationBase: 'http://localhost:8080/verify/',
  providerName: 'Readiness Distance Education',
  signatory: 'Director of Distance Education',
};
const certificateContent = (i) => ({
  name: `Student Number ${i}`,
  percentage: 70 + (i % 30),
  awardedAt: new Date(),
  code: `RDY-${String(i).padStart(4, '0')}-BNCH`,
  nameSize: 38,
});

/**
 * `count` certificate pages rendered to PDF by bare puppeteer-core: one browser, `pool` pages, no JavaScript.
 * Returns PDFs per second.
 */
async function bareLoop({ executablePath, args, fontFaces, count, pool }) {
  const browser = await puppeteer.launch({ executablePath, args, headless: true });
  try {
    const pages = await Promise.all(Array.from({ length: pool }, () => browser.newPage()));
    for (const page of pages) await page.setJavaScriptEnabled(false);
    const htmls = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        certificateHtml(certificateDesign, fontFaces, certificateContent(i)),
      ),
    );
    // Warm-up, as the service renders a test page at start.
    await pages[0].setContent(htmls[0]);
    await pages[0].pdf({ format: 'A4', landscape: true, printBackground: true });
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      pages.map(async (page) => {
        while (next < count) {
          const html = htmls[next++];
          await page.setContent(html, { waitUntil: 'load' });
          await page.pdf({ format: 'A4', landscape: true, printBackground: true, preferCSSPageSize: true });
        }
      }),
    );
    return count / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    await browser.close();
  }
}

module.exports = { treePssMb, certificateDesign, certificateContent, bareLoop };
