/**
 * A user's hands and eyes in the VS Code workbench: keyboard shortcuts and the mouse to act, the
 * screen (the DOM, read by page.js) to see. Every wait is on a condition of the page, with a
 * timeout; none is a fixed sleep.
 *
 * Menus of code actions are `.action-widget .monaco-list-row`, moved through with the arrow keys
 * (a pointer block over the editor intercepts clicks); quick inputs (Quick Open, Go to Line, the
 * Command Palette, input boxes) are `.quick-input-widget`.
 */

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** A squiggle on screen: the 1-based line, the characters drawn above it, its severity. */
export interface Squiggle {
  line: number;
  text: string;
  severity: string;
  x: number;
  y: number;
}

export const PAGE_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'page.js');
const EDITOR = '.part.editor .editor-instance .monaco-editor';
const GATE_STATUS = '[id="spec-glossary.spec-glossary.specGlossary.gateStatus"]';
const QUICK_INPUT = '.quick-input-widget';
const FOCUSED_QUICK_ROW = '.quick-input-list .monaco-list-row.focused';
const ACTION_ROWS = '.action-widget .monaco-list-row.action';

/** `specGlossaryTest.name(...args)` as an expression for the page. */
function call(name: string, ...args: unknown[]): string {
  return `globalThis.specGlossaryTest.${name}(...${JSON.stringify(args)})`;
}

export class Workbench {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.addInitScript({ path: PAGE_SCRIPT });
    await this.page.goto(url);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The explorer lists the folder once the remote file system answers.
    await this.page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  }

  private evaluate<T>(name: string, ...args: unknown[]): Promise<T> {
    return this.page.evaluate(call(name, ...args)) as Promise<T>;
  }

  private async waitFor(name: string, args: unknown[], timeoutMs: number, what: string): Promise<unknown> {
    try {
      const handle = await this.page.waitForFunction(call(name, ...args), undefined, { timeout: timeoutMs });
      return await handle.jsonValue();
    } catch (error) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${(error as Error).message.split('\n')[0]})`);
    }
  }

  /** Types into the open quick input, replacing what is there. */
  private async quickInput(text: string): Promise<void> {
    const input = this.page.locator(`${QUICK_INPUT} input`);
    await input.waitFor({ timeout: 10_000 });
    await input.fill(text);
  }

  /** Quick Open (Ctrl+P) a file by its path relative to the workspace folder. */
  async openFile(relative: string): Promise<void> {
    const parts = relative.split('/');
    const name = parts.at(-1)!;
    const folder = parts.at(-2) ?? '';
    await this.page.keyboard.press('Control+P');
    await this.quickInput(relative);
    await this.page.waitForFunction(
      `(() => { const l = ${call('label', FOCUSED_QUICK_ROW)} || ''; return l.includes(${JSON.stringify(name)}) && l.includes(${JSON.stringify(folder)}); })()`,
      undefined,
      { timeout: 15_000 },
    );
    await this.page.keyboard.press('Enter');
    await this.waitFor('label', ['.tab.active'], 15_000, `the tab of ${relative}`);
    await this.page.waitForFunction(`(${call('label', '.tab.active')} || '').startsWith(${JSON.stringify(name)})`, undefined, { timeout: 15_000 });
    await this.page.locator(`${EDITOR} .view-lines`).waitFor();
  }

  /** Go to Line/Column (Ctrl+G), 1-based; waits for the cursor to be there. */
  async goTo(line: number, column?: number): Promise<void> {
    await this.page.keyboard.press('Control+G');
    await this.quickInput(column ? `:${line}:${column}` : `:${line}`);
    await this.page.keyboard.press('Enter');
    const shown = column ? `Ln ${line}, Col ${column}` : `Ln ${line},`;
    await this.page.waitForFunction(`(${call('text', '[id="status.editor.selection"]')} || '').includes(${JSON.stringify(shown)})`, undefined, { timeout: 10_000 });
  }

  /** The squiggles drawn in the active editor, each with the characters above it. */
  squiggles(): Promise<Squiggle[]> {
    return this.evaluate<Squiggle[]>('squiggles', EDITOR);
  }

  /** Reads the squiggles at every change of the editor until `condition` holds. */
  async waitForSquiggles(what: string, condition: (squiggles: Squiggle[]) => boolean, timeoutMs = 15_000): Promise<Squiggle[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const now = await this.squiggles();
      if (condition(now)) return now;
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; squiggles on screen: ${JSON.stringify(now.map(({ line, text, severity }) => ({ line, text, severity })))}`);
      }
      await this.evaluate('nextChange', EDITOR, 250);
    }
  }

  /** Text of the gate-status item the extension puts in the status bar. */
  async gateStatus(): Promise<string> {
    return (await this.evaluate<string | null>('text', GATE_STATUS)) ?? '';
  }

  /** Waits for the gate status to contain every `include` string and none of `exclude`. */
  async waitForGateStatus(include: string[], exclude: string[] = [], timeoutMs = 15_000): Promise<string> {
    const condition = `(() => { const t = ${call('text', GATE_STATUS)}; return t !== null && ${JSON.stringify(include)}.every((s) => t.includes(s)) && !${JSON.stringify(exclude)}.some((s) => t.includes(s)); })()`;
    try {
      await this.page.waitForFunction(condition, undefined, { timeout: timeoutMs });
    } catch {
      throw new Error(`the status bar item should show ${JSON.stringify(include)} and not ${JSON.stringify(exclude)}; it shows ${JSON.stringify(await this.gateStatus())}`);
    }
    return this.gateStatus();
  }

  async clickGateStatus(): Promise<void> {
    await this.page.locator(GATE_STATUS).click();
  }

  /** Rows of the Problems view, by their accessible labels ("Error: message at line 22 and character 39 …"). */
  async problems(): Promise<string[]> {
    await this.page.locator('.markers-panel .monaco-list-row').first().waitFor({ timeout: 10_000 });
    return this.evaluate<string[]>('labels', '.markers-panel .monaco-list-row');
  }

  /**
   * Moves the mouse over a point and waits for a hover showing every needle. VS Code shows a hover
   * once the pointer rests on a word after moving there; a move it misses (the editor still laying
   * out after the last step) shows none, ever. Then, as a user would, the pointer goes off the word
   * and back (said on stderr), up to three times within the time allowed.
   */
  async hover(x: number, y: number, needles: string[], timeoutMs = 15_000): Promise<string> {
    const attempts = 3;
    for (let attempt = 1; ; attempt++) {
      await this.page.mouse.move(x - 60, y + 60);
      await this.page.mouse.move(x, y, { steps: 4 });
      try {
        return (await this.waitFor('hoverWith', [needles], Math.round(timeoutMs / attempts), `a hover showing ${JSON.stringify(needles)}`)) as string;
      } catch (error) {
        if (attempt === attempts) throw error;
        process.stderr.write(`no hover at (${x}, ${y}) yet: moving the pointer off the word and back (attempt ${attempt + 1} of ${attempts})\n`);
      }
    }
  }

  async hideHover(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.waitForFunction(`!${call('hoverShown')}`, undefined, { timeout: 5_000 });
  }

  /**
   * Opens the Quick Fix menu (Ctrl+.) at the cursor and returns the titles of its actions. VS Code
   * drops a request for them when the file's problems are replaced while it runs, and says "No
   * code actions available": then, as a user would, it asks once more (and says so on stderr).
   */
  async quickFixes(): Promise<string[]> {
    const menu = this.page.locator(`${ACTION_ROWS}.focused`);
    const none = this.page.getByText('No code actions available');
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+.');
      await menu.or(none).first().waitFor({ timeout: 10_000 });
      if (await menu.isVisible()) return this.evaluate<string[]>('labels', ACTION_ROWS);
      // (VS Code drops a Ctrl+. whose request a refresh of the file's problems overtakes.)
      if (attempt > 2) throw new Error('VS Code showed "No code actions available" at three Ctrl+. in a row');
      console.warn(`VS Code showed "No code actions available" at Ctrl+. ${attempt}; asking again`);
      await this.page.keyboard.press('Escape');
      await none.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
      await this.page.waitForTimeout(300 * attempt);
    }
  }

  /** Moves the focus of the open action menu to `title` with the arrow keys and presses Enter. */
  async chooseAction(title: string): Promise<void> {
    const titles = await this.evaluate<string[]>('labels', ACTION_ROWS);
    if (!titles.includes(title)) throw new Error(`no ${JSON.stringify(title)} in the menu: ${JSON.stringify(titles)}`);
    for (let step = 0; step <= titles.length; step++) {
      const focused = (await this.evaluate<string | null>('label', `${ACTION_ROWS}.focused`)) ?? '';
      if (focused === title) {
        await this.page.keyboard.press('Enter');
        await this.page.locator('.action-widget').waitFor({ state: 'hidden', timeout: 10_000 });
        return;
      }
      await this.page.keyboard.press('ArrowDown');
      await this.page.waitForFunction(`${call('label', `${ACTION_ROWS}.focused`)} !== ${JSON.stringify(focused)}`, undefined, { timeout: 5_000 });
    }
    throw new Error(`could not move the focus to ${JSON.stringify(title)} in ${JSON.stringify(titles)}`);
  }

  /** The open input box (showInputBox): its title, prompt and validation message, as shown. */
  async inputBox(): Promise<string> {
    const widget = this.page.locator(QUICK_INPUT);
    await widget.waitFor({ timeout: 10_000 });
    return (await widget.innerText()).trim();
  }

  /** Waits for the input box to show `needle` (or, with `shown` false, to stop showing it). */
  async waitForInputBoxText(needle: string, shown = true, timeoutMs = 10_000): Promise<void> {
    const has = `(document.querySelector(${JSON.stringify(QUICK_INPUT)})?.innerText || '').includes(${JSON.stringify(needle)})`;
    await this.page.waitForFunction(shown ? has : `!${has}`, undefined, { timeout: timeoutMs });
  }

  async inputBoxValue(): Promise<string> {
    return this.page.locator(`${QUICK_INPUT} input`).inputValue();
  }

  async inputBoxClosed(): Promise<void> {
    await this.page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Runs a command from the Command Palette (F1) by its title there ("Category: Title"). */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.quickInput(`>${title}`);
    await this.page.waitForFunction(`(${call('label', FOCUSED_QUICK_ROW)} || '').startsWith(${JSON.stringify(title)})`, undefined, { timeout: 10_000 });
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).waitFor({ state: 'hidden', timeout: 10_000 });
  }

  /** Starts watching for a squiggle over exactly `word` (see page.js watchFor). */
  async watchForSquiggle(word: string): Promise<void> {
    await this.evaluate('watchFor', EDITOR, word);
  }

  /** Milliseconds from the last key press to the squiggle, once it is there. */
  async squiggleLatency(timeoutMs: number): Promise<number> {
    await this.page.waitForFunction('globalThis.specGlossaryTest.watch.flaggedAt > 0', undefined, { timeout: timeoutMs });
    const watch = (await this.page.evaluate('globalThis.specGlossaryTest.watch')) as { typedAt: number; flaggedAt: number };
    return watch.flaggedAt - watch.typedAt;
  }

  /** The text of the Output view (the channel selected in it), once it shows `needle`. */
  async outputText(needle: string, timeoutMs = 10_000): Promise<string> {
    const expression = `[...document.querySelectorAll('.part.panel .monaco-editor .view-lines')].map((e) => e.innerText.replace(/\u00a0/g, ' ')).find((t) => t.includes(${JSON.stringify(needle)})) || false`;
    try {
      const handle = await this.page.waitForFunction(expression, undefined, { timeout: timeoutMs });
      return (await handle.jsonValue()) as string;
    } catch {
      const shown = await this.page.evaluate(`[...document.querySelectorAll('.part.panel .monaco-editor .view-lines')].map((e) => e.innerText)`);
      throw new Error(`the Output view should show ${JSON.stringify(needle)}; the panel's editors show ${JSON.stringify(shown)}`);
    }
  }

  async screenshot(file: string): Promise<void> {
    await this.page.screenshot({ path: file });
  }
}
