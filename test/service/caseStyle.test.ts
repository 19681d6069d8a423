/** The Replace fix's text: the replacement in the letter case and number of the use it replaces. */
import { describe, expect, test } from 'vitest';
import { replacementFor } from '../../server/src/service/caseStyle';

describe('replacementFor', () => {
  test('case and number of the use, whatever line break it is written across', () => {
    expect(replacementFor('work dirs', 'work dir', 'task unit')).toBe('task units');
    expect(replacementFor('Work dir', 'work dir', 'task unit')).toBe('Task unit');
    expect(replacementFor('Work Dirs', 'work dir', 'task unit')).toBe('Task Units');
    // Across a block quote's line break, or a hard break: still Title Case and plural.
    expect(replacementFor('Work\n> Dirs', 'work dir', 'task unit')).toBe('Task Units');
    expect(replacementFor('Work\\\nDirs', 'work dir', 'task unit')).toBe('Task Units');
    expect(replacementFor(undefined, 'work dir', 'task unit')).toBe('task unit');
  });
});
