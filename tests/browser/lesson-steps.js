// Driving the lesson screen (panels/lesson-screen.js) in the browser tests: open a lesson at a
// part, wait until its searches are recorded and the part is shown, read what it shows.
import { lessonById, lessonLink } from '../../web/src/lesson/lessons.js';

/** The address of a lesson's part (0-based) on the page served at `base`. */
export const lessonUrl = (base, id, part = 0) => new URL(lessonLink(lessonById(id), part), base).href;

/** The lesson slice, and the replay's step and length. */
export const lessonState = (page) => page.evaluate(() => {
  const s = window.__polycube.state();
  return { ...s.lesson, replayStep: s.watch.step, replaySteps: s.watch.steps, playing: s.watch.playing, options: s.options.text };
});

/**
 * Wait until the lesson `id` shows its part `part` (when given) with nothing left to wait for:
 * its searches recorded, the replay where the part puts it.
 */
export function lessonReady(page, { id = null, part = null } = {}, timeout = 120_000) {
  return page.waitForFunction(([wantId, wantPart]) => {
    const s = window.__polycube && window.__polycube.state();
    return !!s && s.lesson.open && !s.lesson.busy && !s.watch.recording && !(s.watch.compare && s.watch.compare.recording)
      && (wantId === null || s.lesson.id === wantId) && (wantPart === null || s.lesson.step === wantPart);
  }, [id, part], { timeout, polling: 50 });
}

/** Go to the next part (the button, or a key as a presenter would) and wait for it. */
export async function nextPart(page, key = null) {
  const before = await lessonState(page);
  if (key) await page.keyboard.press(key);
  else await page.click('#lesson-next');
  const last = before.step + 1 >= before.count;
  await page.waitForFunction(([id, step, last]) => {
    const s = window.__polycube.state().lesson;
    return last ? s.id !== id : s.step === step + 1;
  }, [before.id, before.step, last], { timeout: 10_000, polling: 20 });
  await lessonReady(page);
}

/** The replay's step as the narration says it ("Search step 12 of 71: ..."). */
export async function searchStep(page) {
  const m = (await page.textContent('#lesson-now')).match(/^Search step ([\d,]+) of ([\d,]+)/);
  return m ? [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))] : null;
}
