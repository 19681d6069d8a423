;; The lexer's fast path (see wasmLexer.ts, which owns the memory layout, and tokens.ts, whose
;; character loop is the reference this must agree with token for token).
;;
;; Why WebAssembly: the JavaScript lexer is held to ~5 ns a character by a branch per character
;; that mispredicts at every word boundary. Here sixteen code units at a time are classified with
;; SIMD, word boundaries come out of a bit mask, and a word's key (its ≤ 16 lowercased ASCII
;; characters, zero-padded: one v128) is built and looked up in a hash table without a loop over
;; its characters.
;;
;; Words this path does not finish — longer than 16, with an underscore or a non-ASCII letter, or
;; followed by an apostrophe and a letter — are handed back to JavaScript (`lex` returns 1 with
;; $at = the word's start). New keys get a pending id (-1, -2, … in the table and in `word`) that
;; JavaScript replaces with the lexicon's id after the call. When the table is half full, `lex`
;; returns 2 (JavaScript grows the table, then calls again from $at).
(module
  (memory (export "memory") 1)

  ;; Layout (byte addresses, set by JavaScript through `layout` / `table`).
  (global $codes (mut i32) (i32.const 0)) ;; address of the code unit at document offset 0
  (global $start (mut i32) (i32.const 0))
  (global $end (mut i32) (i32.const 0))
  (global $word (mut i32) (i32.const 0))
  (global $shape (mut i32) (i32.const 0))
  (global $shaped (mut i32) (i32.const 0))
  (global $quotes (mut i32) (i32.const 0))
  (global $quotesCap (mut i32) (i32.const 0))
  (global $news (mut i32) (i32.const 0)) ;; (slot, start, end) per new key
  ;; 32 bytes per slot (one cache line holds a whole slot): the key, then the value at +16
  ;; (0 empty, id + 1, or -(number of the new key) until JavaScript gives it an id).
  (global $table (mut i32) (i32.const 0))
  (global $mask (mut i32) (i32.const 0)) ;; slots - 1

  ;; Counters, read and written by JavaScript between calls.
  (global $count (export "count") (mut i32) (i32.const 0))
  (global $nShaped (export "nShaped") (mut i32) (i32.const 0))
  (global $nQuotes (export "nQuotes") (mut i32) (i32.const 0))
  (global $nNews (export "nNews") (mut i32) (i32.const 0))
  (global $entries (export "entries") (mut i32) (i32.const 0))
  (global $at (export "at") (mut i32) (i32.const 0))

  (func (export "layout") (param $codes i32) (param $start i32) (param $end i32) (param $word i32) (param $shape i32)
      (param $shaped i32) (param $quotes i32) (param $quotesCap i32) (param $news i32)
    (global.set $codes (local.get $codes))
    (global.set $start (local.get $start))
    (global.set $end (local.get $end))
    (global.set $word (local.get $word))
    (global.set $shape (local.get $shape))
    (global.set $shaped (local.get $shaped))
    (global.set $quotes (local.get $quotes))
    (global.set $quotesCap (local.get $quotesCap))
    (global.set $news (local.get $news))
    (global.set $count (i32.const 0))
    (global.set $nShaped (i32.const 0))
    (global.set $nQuotes (i32.const 0))
    (global.set $nNews (i32.const 0)))

  (func (export "table") (param $table i32) (param $mask i32)
    (global.set $table (local.get $table))
    (global.set $mask (local.get $mask)))

  ;; Bit i set when code unit i of the eight is a curly double quote (“ ”).
  (func $curlyQuoteBits (param $v v128) (result i32)
    (i16x8.bitmask
      (i16x8.lt_u (i16x8.sub (local.get $v) (v128.const i16x8 0x201c 0x201c 0x201c 0x201c 0x201c 0x201c 0x201c 0x201c)) (v128.const i16x8 2 2 2 2 2 2 2 2))))

  ;; A letter ([A-Za-z] or U+00C0–U+024F), which may follow an apostrophe inside a word.
  (func $isLetter (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97)) (i32.const 26))
      (i32.lt_u (i32.sub (local.get $c) (i32.const 0xc0)) (i32.const 0x190))))

  ;; Tokens of document offsets [pos, to). Returns 0 when done, 1 when the word at $at is left to
  ;; JavaScript (call again from its end), 2 when the table must grow first (call again from $at).
  ;; (One function: a call per word costs more than the word's own work.)
  (func (export "lex") (param $pos i32) (param $to i32) (result i32)
    (local $inWord i32) (local $tok i32) (local $e i32) (local $m i32) (local $ends i32) (local $starts i32) (local $q i32)
    (local $n i32) (local $lim i32) (local $a i32) (local $v0 v128) (local $v1 v128) (local $bytes v128)
    (local $len i32) (local $c i32) (local $lm v128) (local $up v128) (local $key v128) (local $upBits i32)
    (local $uppers i32) (local $bits i32) (local $slot i32) (local $v i32) (local $id i32) (local $rec i32) (local $status i32)
    (block $done
      (loop $block
        ;; (A word running up to `to` at a block's end is finished by one more, empty, block.)
        (br_if $done (i32.and (i32.ge_s (local.get $pos) (local.get $to)) (i32.eqz (local.get $inWord))))
        (local.set $a (i32.add (global.get $codes) (i32.shl (local.get $pos) (i32.const 1))))
        (local.set $v0 (v128.load (local.get $a)))
        (local.set $v1 (v128.load offset=16 (local.get $a)))
        ;; The sixteen code units as bytes (past U+00FF: 255; past U+7FFF: 0), classified at once;
        ;; units past U+024F (255 too) are corrected below, where there are any.
        (local.set $bytes (i8x16.narrow_i16x8_u (local.get $v0) (local.get $v1)))
        (local.set $m
          (i8x16.bitmask
            (v128.or
              (v128.or
                (i8x16.lt_u (i8x16.sub (local.get $bytes) (v128.const i8x16 48 48 48 48 48 48 48 48 48 48 48 48 48 48 48 48)) (v128.const i8x16 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10 10))
                (i8x16.lt_u (i8x16.sub (v128.or (local.get $bytes) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)) (v128.const i8x16 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97 97)) (v128.const i8x16 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26)))
              (v128.or
                (i8x16.eq (local.get $bytes) (v128.const i8x16 95 95 95 95 95 95 95 95 95 95 95 95 95 95 95 95))
                (i8x16.ge_u (local.get $bytes) (v128.const i8x16 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0))))))
        (local.set $q (i8x16.bitmask (i8x16.eq (local.get $bytes) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))))
        (if (v128.any_true (i16x8.gt_u (i16x8.max_u (local.get $v0) (local.get $v1)) (v128.const i16x8 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f)))
          (then
            (local.set $m
              (i32.and (local.get $m)
                (i32.xor (i32.const -1)
                  (i32.or
                    (i16x8.bitmask (i16x8.gt_u (local.get $v0) (v128.const i16x8 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f)))
                    (i32.shl (i16x8.bitmask (i16x8.gt_u (local.get $v1) (v128.const i16x8 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f 0x24f))) (i32.const 8))))))
            (local.set $q (i32.or (local.get $q) (i32.or (call $curlyQuoteBits (local.get $v0)) (i32.shl (call $curlyQuoteBits (local.get $v1)) (i32.const 8)))))))
        (local.set $n (i32.sub (local.get $to) (local.get $pos)))
        (if (i32.lt_s (local.get $n) (i32.const 16))
          (then
            (local.set $lim (i32.sub (i32.shl (i32.const 1) (local.get $n)) (i32.const 1)))
            (local.set $m (i32.and (local.get $m) (local.get $lim)))
            (local.set $q (i32.and (local.get $q) (local.get $lim)))))
        ;; Quotes, in order (past the capacity only counted: JavaScript then drops the list).
        (block $noQuotes
          (loop $quote
            (br_if $noQuotes (i32.eqz (local.get $q)))
            (if (i32.lt_u (global.get $nQuotes) (global.get $quotesCap))
              (then
                (i32.store
                  (i32.add (global.get $quotes) (i32.shl (global.get $nQuotes) (i32.const 2)))
                  (i32.add (local.get $pos) (i32.ctz (local.get $q))))))
            (global.set $nQuotes (i32.add (global.get $nQuotes) (i32.const 1)))
            (local.set $q (i32.and (local.get $q) (i32.sub (local.get $q) (i32.const 1))))
            (br $quote)))
        ;; Bits of the units that start a word, and of those just past one, in order; the word
        ;; of the first end may have started in an earlier block ($inWord).
        (local.set $lim (i32.or (i32.shl (local.get $m) (i32.const 1)) (local.get $inWord)))
        (local.set $starts (i32.and (local.get $m) (i32.xor (local.get $lim) (i32.const -1))))
        (local.set $ends (i32.and (i32.and (local.get $lim) (i32.xor (local.get $m) (i32.const -1))) (i32.const 0xffff)))
        (block $noEnds
          (loop $word
            (br_if $noEnds (i32.eqz (local.get $ends)))
            (if (local.get $inWord)
              (then (local.set $inWord (i32.const 0)))
              (else
                (local.set $tok (i32.add (local.get $pos) (i32.ctz (local.get $starts))))
                (local.set $starts (i32.and (local.get $starts) (i32.sub (local.get $starts) (i32.const 1))))))
            (local.set $e (i32.add (local.get $pos) (i32.ctz (local.get $ends))))
            (local.set $ends (i32.and (local.get $ends) (i32.sub (local.get $ends) (i32.const 1))))
            ;; The word [$tok, $e): shape, key, id, appended to the tokens; or left to JavaScript.
            (local.set $status
              (block $stop (result i32)
                (local.set $len (i32.sub (local.get $e) (local.get $tok)))
                (drop (br_if $stop (i32.const 1) (i32.gt_s (local.get $len) (i32.const 16))))
                ;; Followed by an apostrophe and a letter ("mission's", "don't"): JavaScript extends the word.
                (if (i32.lt_s (i32.add (local.get $e) (i32.const 1)) (local.get $to))
                  (then
                    (local.set $a (i32.add (global.get $codes) (i32.shl (local.get $e) (i32.const 1))))
                    (local.set $c (i32.load16_u (local.get $a)))
                    (if (i32.or (i32.eq (local.get $c) (i32.const 39)) (i32.eq (local.get $c) (i32.const 0x2019)))
                      (then (drop (br_if $stop (i32.const 1) (call $isLetter (i32.load16_u offset=2 (local.get $a)))))))))
                (local.set $a (i32.add (global.get $codes) (i32.shl (local.get $tok) (i32.const 1))))
                ;; The word's characters as bytes (past U+00FF: 255), lanes past its end masked by $lm.
                (local.set $bytes (i8x16.narrow_i16x8_u (v128.load (local.get $a)) (v128.load offset=16 (local.get $a))))
                (local.set $lm (i8x16.lt_u (v128.const i8x16 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15) (i8x16.splat (local.get $len))))
                ;; An underscore or a non-ASCII letter: JavaScript's word.
                (drop (br_if $stop (i32.const 1)
                  (v128.any_true
                    (v128.and
                      (v128.or
                        (i8x16.eq (local.get $bytes) (v128.const i8x16 95 95 95 95 95 95 95 95 95 95 95 95 95 95 95 95))
                        (i8x16.ge_u (local.get $bytes) (v128.const i8x16 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0 0xc0)))
                      (local.get $lm)))))
                (local.set $up
                  (v128.and
                    (i8x16.lt_u (i8x16.sub (local.get $bytes) (v128.const i8x16 65 65 65 65 65 65 65 65 65 65 65 65 65 65 65 65)) (v128.const i8x16 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26 26))
                    (local.get $lm)))
                (local.set $upBits (i8x16.bitmask (local.get $up)))
                (local.set $uppers (i32.popcnt (local.get $upBits)))
                (local.set $bits (i32.const 0))
                (if (local.get $uppers)
                  (then
                    (if (i32.eq (local.get $uppers) (local.get $len))
                      (then
                        ;; An acronym: two to five capitals.
                        (if (i32.lt_u (i32.sub (local.get $len) (i32.const 2)) (i32.const 4)) (then (local.set $bits (i32.const 1)))))
                      (else
                        ;; "APIs": capitals, then a final "s" (no digit).
                        (if (i32.and
                              (i32.lt_u (i32.sub (local.get $len) (i32.const 3)) (i32.const 4))
                              (i32.eq (local.get $upBits) (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $len) (i32.const 1))) (i32.const 1))))
                          (then
                            (if (i32.eq (i32.load16_u (i32.add (local.get $a) (i32.shl (i32.sub (local.get $len) (i32.const 1)) (i32.const 1)))) (i32.const 115))
                              (then (local.set $bits (i32.const 3))))))
                        ;; camelCase (lower-case start) or PascalCase with two capitals.
                        (if (i32.or
                              (i32.ge_u (i32.load16_u (local.get $a)) (i32.const 97))
                              (i32.ge_u (local.get $uppers) (i32.const 2)))
                          (then (local.set $bits (i32.or (local.get $bits) (i32.const 4)))))))))
                ;; The key: lowercased, zero past the word; its slot as $home computes it.
                (local.set $key
                  (v128.and
                    (v128.or (local.get $bytes) (v128.and (local.get $up) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
                    (local.get $lm)))
                (local.set $slot
                  (i32.and
                    (i32.wrap_i64
                      (i64.shr_u
                        (i64.xor
                          (i64.mul (i64x2.extract_lane 0 (local.get $key)) (i64.const 0x9e3779b97f4a7c15))
                          (i64.mul (i64x2.extract_lane 1 (local.get $key)) (i64.const 0xc2b2ae3d27d4eb4f)))
                        (i64.const 32)))
                    (global.get $mask)))
                (block $found
                  (loop $probe
                    (local.set $rec (i32.add (global.get $table) (i32.shl (local.get $slot) (i32.const 5))))
                    (local.set $v (i32.load offset=16 (local.get $rec)))
                    (if (i32.eqz (local.get $v))
                      (then
                        ;; A new key: at most half the slots are used.
                        (drop (br_if $stop (i32.const 2)
                          (i32.gt_u (i32.shl (i32.add (global.get $entries) (i32.const 1)) (i32.const 1)) (i32.add (global.get $mask) (i32.const 1)))))
                        (global.set $entries (i32.add (global.get $entries) (i32.const 1)))
                        (global.set $nNews (i32.add (global.get $nNews) (i32.const 1)))
                        (local.set $id (i32.sub (i32.const 0) (global.get $nNews)))
                        (v128.store (local.get $rec) (local.get $key))
                        (i32.store offset=16 (local.get $rec) (local.get $id))
                        (local.set $rec (i32.add (global.get $news) (i32.mul (i32.sub (global.get $nNews) (i32.const 1)) (i32.const 12))))
                        (i32.store (local.get $rec) (local.get $slot))
                        (i32.store offset=4 (local.get $rec) (local.get $tok))
                        (i32.store offset=8 (local.get $rec) (local.get $e))
                        (br $found)))
                    (if (i8x16.all_true (i8x16.eq (v128.load (local.get $rec)) (local.get $key)))
                      (then
                        (local.set $id (select (i32.sub (local.get $v) (i32.const 1)) (local.get $v) (i32.gt_s (local.get $v) (i32.const 0))))
                        (br $found)))
                    (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $mask)))
                    (br $probe)))
                (local.set $rec (i32.shl (global.get $count) (i32.const 2)))
                (i32.store (i32.add (global.get $start) (local.get $rec)) (local.get $tok))
                (i32.store (i32.add (global.get $end) (local.get $rec)) (local.get $e))
                (i32.store (i32.add (global.get $word) (local.get $rec)) (local.get $id))
                (i32.store8 (i32.add (global.get $shape) (global.get $count)) (local.get $bits))
                (if (local.get $bits)
                  (then
                    (i32.store (i32.add (global.get $shaped) (i32.shl (global.get $nShaped) (i32.const 2))) (global.get $count))
                    (global.set $nShaped (i32.add (global.get $nShaped) (i32.const 1)))))
                (global.set $count (i32.add (global.get $count) (i32.const 1)))
                (i32.const 0)))
            (if (local.get $status)
              (then
                (global.set $at (local.get $tok))
                (call $unquote (local.get $tok))
                (return (local.get $status))))
            (br $word)))
        ;; A word that goes on past the block.
        (if (local.get $starts) (then (local.set $tok (i32.add (local.get $pos) (i32.ctz (local.get $starts))))))
        (local.set $inWord (i32.shr_u (local.get $m) (i32.const 15)))
        (local.set $pos (i32.add (local.get $pos) (i32.const 16)))
        (br $block)))
    (i32.const 0))

  ;; Forget the quotes recorded at or after $from (the call resumes there).
  (func $unquote (param $from i32)
    (if (i32.gt_u (global.get $nQuotes) (global.get $quotesCap)) (then (return)))
    (block $stop
      (loop $pop
        (br_if $stop (i32.eqz (global.get $nQuotes)))
        (br_if $stop
          (i32.lt_s
            (i32.load (i32.sub (i32.add (global.get $quotes) (i32.shl (global.get $nQuotes) (i32.const 2))) (i32.const 4)))
            (local.get $from)))
        (global.set $nQuotes (i32.sub (global.get $nQuotes) (i32.const 1)))
        (br $pop))))

  ;; The home slot of a key (lex computes it the same way, inline).
  (func $home (param $key v128) (result i32)
    (i32.and
      (i32.wrap_i64
        (i64.shr_u
          (i64.xor
            (i64.mul (i64x2.extract_lane 0 (local.get $key)) (i64.const 0x9e3779b97f4a7c15))
            (i64.mul (i64x2.extract_lane 1 (local.get $key)) (i64.const 0xc2b2ae3d27d4eb4f)))
          (i64.const 32)))
      (global.get $mask)))

  ;; Insert the `n` occupied slots of an old table (at $old) into the
  ;; current, larger one.
  (func (export "reinsert") (param $old i32) (param $n i32)
    (local $i i32) (local $v i32) (local $key v128) (local $slot i32) (local $from i32) (local $addr i32)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $from (i32.add (local.get $old) (i32.shl (local.get $i) (i32.const 5))))
        (local.set $v (i32.load offset=16 (local.get $from)))
        (if (local.get $v)
          (then
            (local.set $key (v128.load (local.get $from)))
            (local.set $slot (call $home (local.get $key)))
            (block $free
              (loop $probe
                (local.set $addr (i32.add (global.get $table) (i32.shl (local.get $slot) (i32.const 5))))
                (br_if $free (i32.eqz (i32.load offset=16 (local.get $addr))))
                (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (global.get $mask)))
                (br $probe)))
            (v128.store (local.get $addr) (local.get $key))
            (i32.store offset=16 (local.get $addr) (local.get $v))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each))))
)
