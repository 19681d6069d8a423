// Runs in the VS Code page (added by test/vscode/workbench.ts with addInitScript): reads what is
// on screen. Plain browser JavaScript, because the project's TypeScript has no DOM library.
//
// Monaco's DOM, as read here: squiggles are `.view-overlays .squiggly-<severity>` boxes drawn under
// the text of `.view-lines .view-line`; line numbers are in `.margin-view-overlays .line-numbers`.
globalThis.specGlossaryTest = {
  /** Every squiggle of the editor: 1-based line, the characters drawn above it, its severity. */
  squiggles(editorSelector) {
    const editor = document.querySelector(editorSelector);
    if (!editor) return [];
    const lines = [...editor.querySelectorAll('.view-lines .view-line')];
    const numbers = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')]
      .map((el) => ({ top: el.getBoundingClientRect().top, n: Number(el.textContent.trim()) }))
      .filter((entry) => Number.isInteger(entry.n) && entry.n > 0);
    const out = [];
    for (const squiggle of editor.querySelectorAll('.view-overlays [class*="squiggly-"]')) {
      const box = squiggle.getBoundingClientRect();
      const y = box.top + box.height / 2;
      const row = lines.find((line) => {
        const r = line.getBoundingClientRect();
        return r.top <= y && y < r.bottom;
      });
      if (!row) continue;
      let text = '';
      const range = document.createRange();
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.data.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const r = range.getBoundingClientRect();
          const middle = r.left + r.width / 2;
          if (r.width > 0 && middle >= box.left && middle <= box.right) text += node.data[i];
        }
      }
      // A wrapped line has its number on its first row only: the nearest number at or above.
      let line = 0;
      let best = -Infinity;
      for (const entry of numbers) {
        if (entry.top <= y && entry.top > best) {
          best = entry.top;
          line = entry.n;
        }
      }
      const severity = (/squiggly-(\w+)/.exec(squiggle.className) || [])[1] || '';
      out.push({ line, text: text.replace(/\u00a0/g, ' '), severity, x: box.left + box.width / 2, y });
    }
    return out;
  },

  /** Resolves at the next change of the element's subtree, or after `ms`. */
  nextChange(selector, ms) {
    return new Promise((resolve) => {
      const target = document.querySelector(selector);
      if (!target) return resolve(false);
      const done = (changed) => {
        observer.disconnect();
        clearTimeout(timer);
        resolve(changed);
      };
      const observer = new MutationObserver(() => done(true));
      observer.observe(target, { subtree: true, childList: true, attributes: true, characterData: true });
      const timer = setTimeout(() => done(false), ms);
    });
  },

  text(selector) {
    const el = document.querySelector(selector);
    return el ? el.textContent.trim() : null;
  },

  label(selector) {
    const el = document.querySelector(selector);
    return el ? el.getAttribute('aria-label') || '' : null;
  },

  labels(selector) {
    return [...document.querySelectorAll(selector)].map((el) => el.getAttribute('aria-label') || '');
  },

  /** The text of a visible hover holding every needle, else false. */
  hoverWith(needles) {
    for (const hover of document.querySelectorAll('.monaco-hover:not(.hidden)')) {
      const text = hover.innerText;
      if (text.trim() !== '' && needles.every((needle) => text.includes(needle))) return text;
    }
    return false;
  },

  hoverShown() {
    return [...document.querySelectorAll('.monaco-hover:not(.hidden)')].some((h) => h.offsetParent !== null && h.innerText.trim() !== '');
  },

  /**
   * Watches for a squiggle over exactly `word` and records when it appeared, and when the last
   * key went down: `typedAt` and `flaggedAt` (performance.now()) in `specGlossaryTest.watch`.
   */
  watchFor(editorSelector, word) {
    const watch = { typedAt: 0, flaggedAt: 0 };
    this.watch = watch;
    const editor = document.querySelector(editorSelector);
    const onKey = () => {
      watch.typedAt = performance.now();
    };
    window.addEventListener('keydown', onKey, true);
    const check = () => {
      if (watch.flaggedAt) return;
      if (this.squiggles(editorSelector).some((s) => s.text === word)) {
        watch.flaggedAt = performance.now();
        observer.disconnect();
        window.removeEventListener('keydown', onKey, true);
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(editor, { subtree: true, childList: true, attributes: true });
  },
};
