;;; driver.el --- drive Emacs + eglot through a quick fix on a spec  -*- lexical-binding: t -*-

;; Loaded after the eglot snippet of docs/editors.md.  Opens $SG_E2E_SPEC as a user would, waits
;; (on conditions, never fixed sleeps) for the server's Flymake diagnostics, asks for the hover
;; through ElDoc's eglot function, picks $SG_E2E_PICK from `eglot-code-actions' (the menu a user
;; sees), waits for the diagnostics to go away, and writes what it saw as JSON to $SG_E2E_OUT.
;; Exits 0, or 1 on the first failed step.

(require 'cl-lib)
(require 'json)
(require 'eglot)
(require 'flymake)

(defvar sg-out (getenv "SG_E2E_OUT"))
(defvar sg-pick (getenv "SG_E2E_PICK"))
(defvar sg-timeout (/ (string-to-number (or (getenv "SG_E2E_TIMEOUT_MS") "20000")) 1000.0))
(defvar sg-result (list (cons 'emacs emacs-version) (cons 'steps [])))

(defun sg-record (key value)
  (setf (alist-get key sg-result) value))

(defun sg-step (name)
  (sg-record 'steps (vconcat (alist-get 'steps sg-result) (list name))))

(defun sg-run-idle-timers ()
  "Run the idle timers, as Emacs does whenever the user pauses (ElDoc, Flymake live here)."
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun sg-wait (predicate)
  "Run the event loop until PREDICATE holds, as an interactive session would: the command-loop
hooks after each step, and the idle timers every half second (a user pausing)."
  (let ((deadline (+ (float-time) sg-timeout))
        (next-idle (+ (float-time) 0.5)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (run-hooks 'post-command-hook)
      (when (> (float-time) next-idle)
        (sg-run-idle-timers)
        (setq next-idle (+ (float-time) 0.5)))
      (accept-process-output nil 0.02))
    (funcall predicate)))

(defun sg-diagnostics ()
  (vconcat
   (mapcar (lambda (d)
             (let ((beg (flymake-diagnostic-beg d)) (end (flymake-diagnostic-end d)))
               (list (cons 'line (1- (line-number-at-pos beg)))
                     (cons 'start (save-excursion (goto-char beg) (current-column)))
                     (cons 'end (save-excursion (goto-char end) (current-column)))
                     (cons 'type (symbol-name (flymake-diagnostic-type d)))
                     (cons 'text (flymake-diagnostic-text d)))))
           (flymake-diagnostics))))

(defun sg-run ()
  (sg-step "open")
  (find-file (getenv "SG_E2E_SPEC"))
  (sg-record 'major_mode (symbol-name major-mode))
  ;; The command loop would run this after `find-file'; `eglot-ensure' connects from it.
  (run-hooks 'post-command-hook)

  (sg-step "attach")
  (unless (sg-wait (lambda () (and (eglot-current-server) eglot--managed-mode)))
    (error "eglot did not connect to the server"))
  (sg-record 'server (format "%S" (eglot--server-info (eglot-current-server))))
  (flymake-start)

  (sg-step "diagnostics")
  (let ((published (sg-wait (lambda () (flymake-diagnostics)))))
    (sg-record 'diagnostics (sg-diagnostics))
    (unless published (error "no diagnostics within %s s" sg-timeout)))
  (goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))

  (sg-step "hover")
  (let (hover)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq hover (or info ""))))
    (sg-wait (lambda () hover))
    (sg-record 'hover (and hover (substring-no-properties hover))))

  (sg-step "code action")
  (let ((last-nonmenu-event ?\r) ; a keyboard invocation: the menu is a completing-read
        titles)
    (cl-letf (((symbol-function 'completing-read)
               (lambda (_prompt collection &rest _)
                 (setq titles (mapcar #'car collection))
                 (or (car (member sg-pick titles))
                     (error "no code action titled %s (offered: %S)" sg-pick titles)))))
      (eglot-code-actions (point) nil nil t))
    (sg-record 'action_titles (vconcat titles)))

  (sg-step "diagnostic gone")
  (let ((cleared (sg-wait (lambda () (null (flymake-diagnostics))))))
    (sg-record 'diagnostics_after (sg-diagnostics))
    (unless cleared (error "the diagnostics are still there %s s after the quick fix" sg-timeout)))
  (sg-step "done"))

(let ((ok (condition-case err
              (progn (sg-run) t)
            (error (sg-record 'error (error-message-string err))
                   ;; The protocol log, to see what went wrong.
                   (ignore-errors
                     (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
                       (sg-record 'events (buffer-substring-no-properties (max (point-min) (- (point-max) 20000)) (point-max)))))
                   (dolist (buffer (buffer-list))
                     (when (string-match-p "stderr" (buffer-name buffer))
                       (sg-record 'stderr (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max))))))
                   nil))))
  (with-temp-file sg-out
    (insert (json-encode sg-result)))
  (ignore-errors (eglot-shutdown (eglot-current-server)))
  (kill-emacs (if ok 0 1)))

;;; driver.el ends here
