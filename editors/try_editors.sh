#!/usr/bin/env bash
# Attaches Debian's Neovim 0.7 and Emacs 28 + eglot, headless, to `iparams-lint lsp` on a sample
# app, with the configuration snippets of docs/editors.md (taken from the page, not copied), and
# prints the findings each editor received. A manual check: the editors are not in CI.
#   IPARAMS_LINT_BIN=target/debug/iparams-lint editors/try_editors.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
docs="$here/../docs/editors.md"
bin="$(realpath "${IPARAMS_LINT_BIN:?set IPARAMS_LINT_BIN to the iparams-lint binary}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The snippets call `iparams-lint` from PATH.
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/iparams-lint"
export PATH="$work/bin:$PATH"

app="$work/app"
mkdir -p "$app/config" "$app/app/scripts"
printf '{"platform-version": "2.3", "product": {"freshdesk": {}}}\n' > "$app/manifest.json"
printf '{\n  "region": {"display_name": "Région 🌍", "type": "txt"}\n}\n' > "$app/config/iparams.json"
printf 'client.iparams.get("zone").then(show);\n' > "$app/app/scripts/app.js"
git -C "$app" init -q  # eglot finds the project by its version control root

# The code block (```LANG) that follows the first line matching PATTERN in docs/editors.md.
snippet() {
  awk -v pattern="$1" -v lang="$2" '
    index($0, pattern) { found = 1 }
    found && !inside && $0 == "```" lang { inside = 1; next }
    inside && $0 == "```" { exit }
    inside { print }
  ' "$docs"
}

echo "== Neovim $(nvim --version | head -1)"
snippet "Neovim 0.7 has neither" lua > "$work/init.lua"
cat >> "$work/init.lua" <<'LUA'
vim.api.nvim_create_autocmd('VimEnter', { nested = true, callback = function()
  -- Each file given on the command line is loaded, so that it is attached and checked.
  vim.cmd('silent argdo echo')
  local files = #vim.api.nvim_list_bufs()
  local function reported()
    local with = {}
    for _, d in ipairs(vim.diagnostic.get()) do with[d.bufnr] = true end
    return vim.tbl_count(with) == files
  end
  if not vim.wait(15000, reported, 50) then io.stdout:write('not every file had findings within 15 s\n') end
  for _, d in ipairs(vim.diagnostic.get()) do
    io.stdout:write(string.format('%s:%d:%d: %s [%s] %s\n', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ':t'), d.lnum + 1,
      d.col + 1, d.source or '?', d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or '?', d.message))
  end
  vim.cmd('qa!')
end })
LUA
(cd "$app" && timeout 60 nvim --headless -u "$work/init.lua" config/iparams.json app/scripts/app.js) \
  | tee "$work/nvim.out"
echo

echo "== Emacs $(emacs --version | head -1) with eglot"
{
  echo "(require 'package) (package-initialize) (require 'eglot)"
  snippet "Eglot (built into Emacs 29" elisp
  snippet "The app's scripts and templates too" elisp
  cat <<'ELISP'
(defvar try-root default-directory)
(defun try-file (file)
  (find-file (expand-file-name file try-root))
  (eglot-ensure)
  (unless (eglot-current-server) (call-interactively #'eglot))
  (let ((waited 0))
    (while (and (< waited 150) (null (flymake-diagnostics)))
      (flymake-start)
      (accept-process-output nil 0.1)
      (setq waited (1+ waited))))
  (dolist (d (flymake-diagnostics))
    (save-excursion
      (goto-char (flymake-diagnostic-beg d))
      ;; Columns in characters from 1, as Neovim's are in bytes from 1.
      (princ (format "%s:%d:%d: %s\n" (file-name-nondirectory file) (line-number-at-pos)
                     (1+ (- (point) (line-beginning-position))) (flymake-diagnostic-text d)))))
  (unless (flymake-diagnostics) (princ (format "%s: no diagnostics within 15 s\n" file))))
(try-file "config/iparams.json")
(try-file "app/scripts/app.js")
(eglot-shutdown-all)
ELISP
} > "$work/try.el"
(cd "$app" && timeout 120 emacs --batch -l "$work/try.el" 2>"$work/emacs.log") \
  | tee "$work/emacs.out" || { cat "$work/emacs.log"; exit 1; }

# The unknown type sits after `é` and `🌍`: Neovim shows byte columns (53 bytes before it), Emacs
# character columns (49 characters); the read of `zone` is at column 20 in both.
status=0
expect() {
  grep -qF "$2" "$work/$1.out" || { echo "MISSING in $1: $2"; status=1; }
}
expect nvim 'iparams.json:2:54: iparams-lint [unknown-type]'
expect nvim 'app.js:1:20: iparams-lint [unknown-iparam-read]'
expect emacs 'iparams.json:2:50: iparams-lint [unknown-type]'
expect emacs 'app.js:1:20: iparams-lint [unknown-iparam-read]'
[ "$status" = 0 ] && echo "Both editors attached and showed the findings at the right columns."
exit "$status"
