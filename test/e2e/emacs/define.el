;;; define.el --- drive Emacs + eglot through defining a term by editing a glossary  -*- lexical-binding: t -*-

;; Loaded after the eglot snippet of docs/editors.md.  Opens $SG_E2E_SPEC, waits (on conditions)
;; for the server's diagnostic on $SG_E2E_TERM, defers it with `eglot-code-actions', then picks
;; "Define '<term>' in the team glossary" (the server inserts a draft entry into the seed file
;; through workspace/applyEdit and says where), goes to that buffer, writes the definition over
;; the placeholder and saves it, as a user does; then waits for the decision to reach the event
;; log and the diagnostic to go.  Writes what it saw as JSON to $SG_E2E_OUT; exits 0, or 1 on
;; the first failed step.

(require 'cl-lib)
(require 'json)
(require 'eglot)
(require 'flymake)

(defvar sg-out (getenv "SG_E2E_OUT"))
(defvar sg-seed (getenv "SG_E2E_SEED"))
(defvar sg-log (getenv "SG_E2E_LOG"))
(defvar sg-term (getenv "SG_E2E_TERM"))
(defvar sg-definition (getenv "SG_E2E_DEFINITION"))
(defvar sg-timeout (/ (string-to-number (or (getenv "SG_E2E_TIMEOUT_MS") "20000")) 1000.0))
(defvar sg-result (list (cons 'emacs emacs-version) (cons 'steps [])))

(defun sg-record (key value)
  (setf (alist-get key sg-result) value))

(defun sg-step (name)
  (sg-record 'steps (vconcat (alist-get 'steps sg-result) (list name))))

(defun sg-run-idle-timers ()
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun sg-wait (predicate)
  "Run the event loop until PREDICATE holds, as an interactive session would."
  (let ((deadline (+ (float-time) sg-timeout))
        (next-idle (+ (float-time) 0.5)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (run-hooks 'post-command-hook)
      (when (> (float-time) next-idle)
        (sg-run-idle-timers)
        (setq next-idle (+ (float-time) 0.5)))
      (accept-process-output nil 0.02))
    (funcall predicate)))

(defun sg-diagnostic-texts ()
  (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))

(defun sg-code-action (title)
  "Choose TITLE from `eglot-code-actions' (the menu is a completing-read); return the titles."
  (let ((last-nonmenu-event ?\r) titles)
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq titles (mapcar #'car collection))
                 (or (car (member title titles))
                     (error "no code action titled %s (offered: %S)" title titles)))))
      (eglot-code-actions (point) nil nil t))
    (vconcat titles)))

(defun sg-file-text (file)
  (and (file-readable-p file)
       (with-temp-buffer (insert-file-contents file) (buffer-string))))

(defun sg-run ()
  (sg-step "open")
  (find-file (getenv "SG_E2E_SPEC"))
  (run-hooks 'post-command-hook)
  (let ((spec (current-buffer))
        (placeholder (format "\"TODO: define %s\"" sg-term))
        ;; eglot asks before applying an edit the server initiates: the user says yes.
        (asked nil))
    (sg-step "attach")
    (unless (sg-wait (lambda () (and (eglot-current-server) eglot--managed-mode)))
      (error "eglot did not connect to the server"))
    (flymake-start)

    (sg-step "diagnostics")
    (unless (sg-wait (lambda () (flymake-diagnostics)))
      (error "no diagnostics within %s s" sg-timeout))
    (sg-record 'diagnostics (vconcat (sg-diagnostic-texts)))
    (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))

    (sg-step "defer")
    (sg-record 'defer_titles (sg-code-action (format "Defer '%s' for later clarification" sg-term)))
    (unless (sg-wait (lambda () (cl-some (lambda (text) (string-match-p "Deferred since" text)) (sg-diagnostic-texts))))
      (error "the diagnostic never said the term is deferred: %S" (sg-diagnostic-texts)))
    (sg-record 'deferred (vconcat (sg-diagnostic-texts)))

    (sg-step "define")
    (cl-letf (((symbol-function 'y-or-n-p) (lambda (prompt) (push prompt asked) t))
              ((symbol-function 'yes-or-no-p) (lambda (prompt) (push prompt asked) t)))
      (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
      (sg-record 'define_titles (sg-code-action (format "Define '%s' in the team glossary" sg-term)))
      (unless (sg-wait (lambda ()
                         (let ((buffer (get-file-buffer sg-seed)))
                           (and buffer (with-current-buffer buffer
                                         (save-excursion (goto-char (point-min)) (search-forward placeholder nil t)))))))
        (error "the draft entry never reached a buffer of %s" sg-seed)))
    (sg-record 'edit_prompts (vconcat asked))

    (sg-step "write the definition")
    (switch-to-buffer (get-file-buffer sg-seed))
    (goto-char (point-min))
    (search-forward placeholder)
    (replace-match sg-definition t t)
    (save-buffer)
    (sg-record 'seed_text (buffer-substring-no-properties (point-min) (point-max)))

    (sg-step "recorded")
    (unless (sg-wait (lambda () (let ((text (sg-file-text sg-log))) (and text (string-match-p "GlossarySenseUpdated" text)))))
      (error "saving the definition recorded nothing in %s" sg-log))

    (sg-step "diagnostic gone")
    (switch-to-buffer spec)
    (let ((cleared (sg-wait (lambda () (null (flymake-diagnostics))))))
      (sg-record 'diagnostics_after (vconcat (sg-diagnostic-texts)))
      (unless cleared (error "the diagnostic is still there after saving the definition")))
    (sg-step "done")))

(let ((ok (condition-case err
              (progn (sg-run) t)
            (error (sg-record 'error (error-message-string err))
                   (ignore-errors
                     (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
                       (sg-record 'events (buffer-substring-no-properties (max (point-min) (- (point-max) 20000)) (point-max)))))
                   nil))))
  ;; What the server said (window/showMessage) is in the echo area's log.
  (sg-record 'messages (with-current-buffer (messages-buffer) (buffer-substring-no-properties (point-min) (point-max))))
  (with-temp-file sg-out
    (insert (json-encode sg-result)))
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (kill-emacs (if ok 0 1)))

;;; define.el ends here
