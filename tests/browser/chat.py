"""Mneme's page in real headless Chromium: chat with a streamed reply, `remember …`, the memory
in the console, forgetting it, and the conversation coming back after a reload.

Run by tests/web_browser.rs against a real `mneme start`, with the Python `playwright` package
(from PyPI, pinned in requirements.txt; its wheel carries its own driver) and Debian's
/usr/bin/chromium — playwright never downloads a browser here. By hand:
  MNEME_URL=http://127.0.0.1:10961 MNEME_EXPECT_REPLY='…' python3 tests/browser/chat.py
"""

import os
import re
import shutil
import sys
import tempfile

from playwright.sync_api import sync_playwright

TIMEOUT_MS = 20_000
# The flags that work on a machine without network: no background connections, no GPU,
# no sandbox (tests run as root), a fresh profile.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def step(what):
    print("step: " + what, flush=True)


def fail(why):
    raise AssertionError(why)


def scenario(page, base, expected, problems):
    step("open the page")
    page.goto(base)
    page.wait_for_function(
        "() => document.getElementById('chat-title').textContent.startsWith('web:')"
    )
    chat = page.text_content("#chat-title")

    step("send a message and watch the reply stream in")
    page.fill("#message-input", "hello from the browser")
    page.press("#message-input", "Enter")
    page.wait_for_selector(".msg.user >> text=hello from the browser")
    partial_text = page.wait_for_function(
        """() => {
          const b = document.querySelector('.msg.bot');
          return b && b.dataset.state === 'streaming' && Number(b.dataset.deltas) >= 1 && b.textContent;
        }"""
    ).json_value()
    page.wait_for_selector('.msg.bot[data-state="done"]')
    reply = page.locator(".msg.bot").first
    final_text = reply.text_content()
    deltas = int(reply.get_attribute("data-deltas"))
    plain_expected = expected.replace("**", "")
    if final_text != plain_expected:
        fail(f"reply shown as {final_text!r}, expected {plain_expected!r}")
    if not (len(partial_text) < len(expected) and expected.startswith(partial_text)):
        fail(f"no partial reply seen while streaming (first seen: {partial_text!r})")
    if deltas < 2:
        fail(f"expected several streamed pieces, got {deltas}")
    if reply.locator("strong").count() != 1:
        fail("**bold** was not rendered")
    if reply.locator("b, img, script").count() != 0:
        fail("raw HTML from the model became elements")
    screenshot = os.environ.get("MNEME_SCREENSHOT")
    if screenshot:
        page.screenshot(path=re.sub(r"\.png$", "-chat.png", screenshot))

    step("remember a fact")
    page.fill("#message-input", "remember I prefer green tea")
    page.click("#send")
    saved = page.locator('.msg.bot[data-state="done"]').nth(1)
    saved.wait_for()
    saved_text = saved.text_content()
    match = re.fullmatch(r"Noted\. Saved memory #(\d+): I prefer green tea", saved_text)
    if not match:
        fail("unexpected answer to remember: " + saved_text)
    memory_id = match.group(1)

    step(f"see memory #{memory_id} in the console")
    page.click("#tab-memory")
    row = page.locator(f'.memory-row[data-id="{memory_id}"]')
    row.wait_for()
    row_text = row.text_content()
    if "I prefer green tea" not in row_text or chat not in row_text:
        fail("memory row shows: " + row_text)
    page.wait_for_selector("#cards .card")
    if screenshot:
        page.screenshot(path=screenshot, full_page=True)

    step(f"forget memory #{memory_id}")
    row.locator("button.forget").click()
    row.wait_for(state="detached")
    note_text = page.text_content("#memory-note")
    if note_text != f"Forgot memory #{memory_id}.":
        fail("after forgetting, the note says: " + note_text)
    page.click("#refresh")
    page.wait_for_selector("#memory-empty:not([hidden])")

    step("reload: the conversation comes back")
    page.reload()
    page.wait_for_function(
        "(c) => document.getElementById('chat-title').textContent === c", arg=chat
    )
    page.wait_for_function("() => document.querySelectorAll('#messages .msg').length === 4")
    shown = page.locator("#messages .msg").all_text_contents()
    if shown[0] != "hello from the browser" or shown[1] != plain_expected:
        fail(f"history shows: {shown!r}")
    if problems:
        fail("\n".join(problems))


def main():
    base = os.environ.get("MNEME_URL")
    expected = os.environ.get("MNEME_EXPECT_REPLY")
    if not base or not expected:
        print(
            "set MNEME_URL (the running mneme) and MNEME_EXPECT_REPLY (the fake model's full reply)",
            file=sys.stderr,
        )
        return 2
    profile = tempfile.mkdtemp(prefix="mneme-chromium-")
    problems = []
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=os.environ.get("MNEME_CHROMIUM", "/usr/bin/chromium"),
                headless=True,
                args=CHROMIUM_ARGS,
                timeout=TIMEOUT_MS,
            )
            try:
                page = context.pages[0] if context.pages else context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
                page.on(
                    "console",
                    lambda m: problems.append("console error: " + m.text)
                    if m.type == "error"
                    else None,
                )
                page.on("dialog", lambda d: d.accept())
                scenario(page, base, expected, problems)
            finally:
                context.close()
    except Exception as e:  # noqa: BLE001 - every failure is reported the same way
        print(f"browser test failed: {type(e).__name__}: {e}", file=sys.stderr)
        if problems:
            print("\n".join(problems), file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    print("browser: all steps passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
