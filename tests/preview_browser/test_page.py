"""The installation page of fixtures/preview/all-types and the example app, in headless Chromium."""

import json
import time

from selenium.webdriver.common.by import By

ALL_TYPES = "fixtures/preview/all-types"
EXAMPLE = "fixtures/apps/hr-sync"


def test_each_type_has_its_control_and_initial_value(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    expected = {
        "company": ("input", "text"),
        "notes": ("textarea", None),
        "mode": ("select", None),
        "contact_email": ("input", "email"),
        "count": ("input", "number"),
        "phone": ("input", "tel"),
        "start_date": ("input", "text"),
        "website": ("input", "url"),
        "color": ("input", "radio"),
        "advanced": ("input", "checkbox"),
        "tags": ("select", None),
        "hr_domain": ("input", "text"),
        "hr_api_key": ("input", "text"),
    }
    for key, (tag, kind) in expected.items():
        control = page.control(key)
        assert control.tag_name == tag, key
        if kind:
            assert control.get_attribute("type") == kind, key
    assert page.control("notes").get_attribute("rows") == "3"
    assert page.control("tags").get_attribute("multiple") is not None
    # The domain sits between a fixed https:// and the product's domain.
    wrap = page.control("hr_domain").find_element(By.XPATH, "..")
    assert wrap.text.startswith("https://") and wrap.text.endswith(".freshteam.com")
    # Initial values: default_value, [] or "" (an unticked checkbox whose default is false: "").
    assert page.value("mode") == "careful"
    assert page.value("count") == "5"
    assert page.value("color") == "green"
    assert page.value("tags") == ["one"]
    assert page.value("advanced") == ""
    assert not page.control("advanced").is_selected()
    assert page.value("company") == ""
    # Labels, hints and asterisks; hidden iparams are not shown.
    label = page.driver.find_element(By.CSS_SELECTOR, '[data-field="company"] label')
    assert label.text == "Company*"
    hint = page.driver.find_element(By.CSS_SELECTOR, '[data-field="company"] .hint')
    assert hint.text == "Your company's name"
    assert not page.visible("tuning")
    # onFormLoad ran.
    assert page.driver.find_element(By.TAG_NAME, "body").get_attribute("data-form-loaded") == "yes"
    # Values as the controls produce them.
    page.type("start_date", "2026-03-04")
    page.control("advanced").click()
    page.driver.find_elements(By.CSS_SELECTOR, '[name="iparam-color"]')[0].click()
    page.type("hr_domain", "https://acme.freshteam.com/path")
    time.sleep(0.5)
    assert page.value("start_date") == "2026-03-04"
    # The picker beside it writes the same text.
    picker = page.driver.find_element(By.CSS_SELECTOR, '[data-field="start_date"] input[type=date]')
    page.driver.execute_script(
        "arguments[0].value = '2026-05-06'; arguments[0].dispatchEvent(new Event('change'))", picker
    )
    assert page.control("start_date").get_attribute("value") == "2026-05-06"
    assert page.value("start_date") == "2026-05-06"
    assert page.value("advanced") is True
    assert page.value("color") == "red"
    assert page.value("hr_domain") == "acme"
    assert page.control("hr_domain").get_attribute("value") == "acme"


def test_validation_messages(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    cases = [
        ("contact_email", "not-an-address", "Invalid e-mail address!"),
        ("contact_email", "ops@acme.test", ""),
        ("phone", "12345", "Invalid format!. It should be a 10 digit number such as 1234567890 or 123-456-7890."),
        ("phone", "123-456-7890", ""),
        ("phone", "1234567890", ""),
        ("start_date", "2026-02-30", "Invalid date!"),
        ("start_date", "04/03/2026", "Invalid date!"),
        ("start_date", "2026-02-28", ""),
        ("website", "not a url", "Invalid URL!"),
        ("website", "https://acme.test", ""),
        # The regex entries as one whole-value pattern, messages joined with "/".
        ("code", "ABC", "Only digits/only lower-case letters"),
        ("code", "12a", "Only digits/only lower-case letters"),
        ("code", "123", ""),
        ("code", "abc", ""),
    ]
    for key, text, message in cases:
        page.type(key, text)
        page.wait_error(key, message)
    # Required: typed, then emptied.
    page.type("company", "Acme")
    page.wait_error("company", "")
    page.type("company", "")
    page.wait_error("company", "This field is required!")
    # INSTALL checks every visible field and focuses the first in error.
    outcome, text = page.install()
    assert (outcome, text) == ("failed", "Validation failed.")
    assert page.error("hr_domain") == "This field is required!"
    assert page.error("tuning") == ""
    focused = page.driver.switch_to.active_element
    assert focused.get_attribute("data-iparam") == "company"


def test_each_callback_return_form(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    # A string: invalid with it, and the value cleared (as the format document says).
    page.type("sync_message", "no")
    page.wait_error("sync_message", "Sync says no")
    assert page.control("sync_message").get_attribute("value") == ""
    assert page.value("sync_message") == ""
    page.type("sync_message", "fine")
    page.wait_error("sync_message", "")
    page.type("sync_message", "no")
    page.wait_error("sync_message", "Sync says no")
    page.type("sync_message", "undefined")
    page.wait_error("sync_message", "")
    # A Promise resolving to a message, and to nothing.
    page.type("resolve_message", "no")
    page.wait_error("resolve_message", "Resolved says no")
    page.type("resolve_message", "ok")
    page.wait_error("resolve_message", "")
    # A Promise rejected with a message, and with nothing.
    page.type("reject_message", "no")
    page.wait_error("reject_message", "Rejected says no")
    page.type("reject_message", "ok")
    page.wait_error("reject_message", "")
    # A thrown exception changes nothing.
    page.type("throws", "value")
    time.sleep(0.6)
    assert page.error("throws") == ""
    assert page.value("throws") == "value"
    # Debounced: 300 ms after the last change, once.
    calls = page.driver.execute_script(
        "window.__calls = []; var f = window.syncMessage; window.syncMessage = function (v) { window.__calls.push(v); return f(v); }; return 0"
    )
    assert calls == 0
    page.type("sync_message", "abc")
    time.sleep(0.15)
    assert page.driver.execute_script("return window.__calls") == []
    time.sleep(0.5)
    assert page.driver.execute_script("return window.__calls") == ["abc"]


def test_utils_set_visible_values_required(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    assert not page.visible("tuning")
    options = lambda: [o.get_attribute("value") for o in page.control("mode").find_elements(By.TAG_NAME, "option") if o.get_attribute("value")]
    assert options() == ["fast", "careful"]
    page.control("advanced").click()
    page.wait_for(lambda d: page.visible("tuning"))
    assert page.value("tuning") == "tuned"
    assert options() == ["fast", "careful", "paranoid"]
    assert page.value("mode") == "careful"
    label = page.driver.find_element(By.CSS_SELECTOR, '[data-field="website"] label')
    assert label.text == "Website*"
    logs = page.driver.get_log("browser") if hasattr(page.driver, "get_log") else []
    del logs
    page.control("advanced").click()
    page.wait_for(lambda d: not page.visible("tuning"))
    assert options() == ["fast", "careful"]
    assert page.driver.find_element(By.CSS_SELECTOR, '[data-field="website"] label').text == "Website"
    # label, hint, min, max, disabled.
    page.driver.execute_script("utils.set('count', {min: 1, max: 10, label: 'How many', hint: 'One to ten'})")
    assert page.driver.find_element(By.CSS_SELECTOR, '[data-field="count"] label').text == "How many"
    assert page.driver.find_element(By.CSS_SELECTOR, '[data-field="count"] .hint').text == "One to ten"
    page.type("count", "20")
    page.wait_error("count", "The number is too big! Maximum: 10")
    page.type("count", "0")
    page.wait_error("count", "The number is too small! Minimum: 1")
    page.type("count", "7")
    page.wait_error("count", "")
    assert page.value("count") == "7"
    page.driver.execute_script("utils.set('notes', {disabled: true})")
    assert not page.control("notes").is_enabled()
    page.driver.execute_script("utils.set('notes', {disabled: false})")
    page.type("notes", "two\nlines")
    assert page.value("notes") == "two\nlines"
    # utils.set's value does not fire the field's callback.
    page.driver.execute_script("utils.set('sync_message', {value: 'no'})")
    time.sleep(0.5)
    assert page.error("sync_message") == ""
    assert page.value("sync_message") == "no"


def fill_required(page, key):
    page.type("company", "Acme")
    page.type("contact_email", "ops@acme.test")
    page.type("hr_domain", "acme")
    page.type("hr_api_key", key)
    time.sleep(0.5)


def test_install_fails_then_passes_with_the_credential_check(app_copy, preview, open_page, sandbox):
    app = app_copy(ALL_TYPES)
    page = open_page(preview(app, "--hr-url", sandbox["url"]))
    fill_required(page, "wrong-key-0000")
    outcome, text = page.install()
    assert outcome == "failed", text
    assert page.error("hr_domain") == "Domain or API key is not matching"
    assert page.error("hr_api_key") == "Domain or API key is not matching"
    # An employee's key may not list branches: the check fails as well.
    page.type("hr_api_key", sandbox["tokens"]["employee"])
    page.wait_error("hr_api_key", "")
    assert page.install()[0] == "failed"
    page.type("hr_api_key", sandbox["tokens"]["hr_partner"])
    time.sleep(0.5)
    outcome, text = page.install()
    assert outcome == "passed", text
    assert text == "App installation parameters have been successfully stored. You can now proceed to test the app."
    stored = json.loads((app / ".iparams-lint/installed.json").read_text())
    assert stored["hr_api_key"] == sandbox["tokens"]["hr_partner"]
    assert stored["tags"] == ["one"] and stored["advanced"] is False
    assert stored["tuning"] == "standard", "hidden iparams are stored too"


def test_refill_without_secrets(app_copy, preview, open_page, sandbox):
    app = app_copy(ALL_TYPES)
    url = preview(app, "--hr-url", sandbox["url"])
    key = sandbox["tokens"]["hr_partner"]
    page = open_page(url)
    fill_required(page, key)
    page.control("tags").find_elements(By.TAG_NAME, "option")[2].click()
    time.sleep(0.4)
    assert page.install()[0] == "passed"
    page = open_page(url)
    assert page.value("company") == "Acme"
    assert page.value("tags") == ["one", "three"]
    assert page.control("hr_api_key").get_attribute("value") == ""
    note = page.driver.find_element(By.CSS_SELECTOR, '[data-secure-set="hr_api_key"]')
    assert note.is_displayed()
    assert key not in page.driver.page_source
    state = page.driver.execute_script("return fetch('/custom_configs/state').then(r => r.text())")
    assert key not in state
    # INSTALL again without retyping the key: it is kept, and checked, on the server.
    outcome, text = page.install()
    assert outcome == "passed", text
    stored = json.loads((app / ".iparams-lint/installed.json").read_text())
    assert stored["hr_api_key"] == key


def test_store_findings_show_at_their_fields(app_copy, preview, open_page):
    app = app_copy(ALL_TYPES)
    page = open_page(preview(app))
    fill_required(page, "some-key-1234")
    # A value the page accepts but the values check does not: an option that is not in options.
    page.driver.execute_script("utils.set('mode', {values: ['fast', 'careful', 'reckless'], value: 'reckless'})")
    outcome, text = page.install()
    assert outcome == "failed", text
    assert "reckless" in page.error("mode"), page.error("mode")
    # Offline, the credential check is skipped, and the page says so beside the status.
    notes = page.driver.find_element(By.CSS_SELECTOR, "[data-install-notes]").text
    assert "were not checked: the preview is offline" in notes, notes
    assert not (app / ".iparams-lint/installed.json").exists()


def test_callbacks_invoke_templates_through_the_server(app_copy, preview, open_page, sandbox):
    page = open_page(preview(app_copy(ALL_TYPES), "--hr-url", sandbox["url"]))
    fill_required(page, sandbox["tokens"]["hr_partner"])
    page.type("employee_id", "1")
    page.wait_error("employee_id", "")
    hint = page.driver.find_element(By.CSS_SELECTOR, '[data-field="employee_id"] .hint')
    page.wait_for(lambda d: hint.text.startswith("Found: "))
    page.type("employee_id", "999999")
    page.wait_for(lambda d: page.error("employee_id").startswith("No employee 999999 (404"))


def test_callbacks_get_an_offline_error_without_hr_url(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    fill_required(page, "some-key-1234")
    page.type("employee_id", "1")
    page.wait_for(lambda d: "Offline" in page.error("employee_id"))


def test_findings_appear_after_an_edit_on_disk(app_copy, preview, open_page):
    app = app_copy(ALL_TYPES)
    page = open_page(preview(app))
    page.type("company", "Typed before the edit")
    time.sleep(0.4)
    before = page.findings_of("notes")
    assert "unknown-type" not in before
    path = app / "config/iparams.json"
    text = path.read_text()
    path.write_text(text.replace('"type": "paragraph"', '"type": "paragraf"', 1))
    started = time.monotonic()
    page.wait_for(lambda d: "unknown-type" in page.findings_of("notes"), timeout=3)
    assert time.monotonic() - started < 1.5
    assert page.value("company") == "Typed before the edit"
    assert page.control("company").get_attribute("value") == "Typed before the edit"
    # A syntax error: its finding at the top, no broken page.
    path.write_text('{"company": {"type": "text",}')
    page.wait_for(lambda d: d.find_element(By.ID, "broken").is_displayed(), timeout=3)
    top = page.driver.find_elements(By.CSS_SELECTOR, "#top-findings li")
    assert top, "the syntax error is shown"
    # Fixed again: the form is back, with the typed value.
    path.write_text(text)
    page.wait_for(lambda d: len(page.controls("company")) == 1, timeout=3)
    assert page.value("company") == "Typed before the edit"


def test_the_example_app(app_copy, preview, open_page, sandbox):
    import os

    app = app_copy(EXAMPLE)
    page = open_page(preview(app, "--hr-url", sandbox["url"]))
    keys = page.driver.execute_script("return window.__preview.fields()")
    assert keys == ["hr_domain", "hr_api_key", "sync_interval_minutes", "department", "notify_email", "include_drafts", "employee_statuses"]
    page.type("hr_domain", "Acme Corp")
    page.wait_error("hr_domain", "Enter only the sub-domain: letters, digits and dashes.")
    page.type("notify_email", "me@gmail.com")
    page.wait_error("notify_email", "Enter a work address, not a personal one")
    page.type("notify_email", "hr@acme.test")
    page.wait_error("notify_email", "")
    shot = os.environ.get("IPARAMS_LINT_SCREENSHOT")
    if shot:
        page.type("hr_domain", "acme")
        page.type("notify_email", "hr@acme.test")
        time.sleep(0.6)
        page.driver.save_screenshot(shot)


def with_iparam(app, key, definition):
    """Adds an iparam to the copy's iparams.json, before the preview reads it."""
    path = app / "config/iparams.json"
    iparams = json.loads(path.read_text())
    iparams[key] = definition
    path.write_text(json.dumps(iparams, indent=2))


def top_problems(page):
    return page.driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-install-problems] li'),"
        " li => [li.getAttribute('data-problem-key'), li.textContent])"
    )


def test_why_install_failed_on_a_hidden_field_is_listed_at_the_top(app_copy, preview, open_page):
    app = app_copy(ALL_TYPES)
    with_iparam(app, "region", {"display_name": "Region", "type": "text", "visible": False, "required": True})
    page = open_page(preview(app))
    # The linter's finding on the hidden field is at the top, not inside the hidden field.
    top = page.driver.execute_script(
        "return Array.from(document.querySelectorAll('#top-findings li'),"
        " li => [li.getAttribute('data-finding-key'), li.textContent])"
    )
    assert any(key == "region" and "not shown on the page" in text for key, text in top), top
    assert page.findings_of("region") == []
    assert top_problems(page) == []
    assert not page.driver.find_element(By.CSS_SELECTOR, "[data-install-problems]").is_displayed()
    fill_required(page, "some-key-1234")
    outcome, text = page.install()
    assert (outcome, text) == ("failed", "Validation failed.")
    problems = top_problems(page)
    assert [key for key, _ in problems] == ["region"], problems
    assert "hidden-required-value" in problems[0][1] and "hidden and has no value" in problems[0][1], problems
    assert page.driver.find_element(By.CSS_SELECTOR, "[data-install-problems]").is_displayed()
    assert not (app / ".iparams-lint/installed.json").exists()
    # Shown again by a callback, the field takes its finding back.
    page.driver.execute_script("utils.set('region', {visible: true})")
    page.wait_for(lambda d: page.findings_of("region") != [])


def test_a_thrown_callback_exception_is_shown(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    assert not page.driver.find_element(By.CSS_SELECTOR, "[data-script-errors]").is_displayed()
    page.type("throws", "value")
    note = page.driver.find_element(By.CSS_SELECTOR, '[data-callback-error="throws"]')
    page.wait_for(lambda d: note.text != "")
    assert "throwing threw Error: thrown for value" in note.text, note.text
    # The exception changes nothing else: the field is valid, its value kept.
    assert page.error("throws") == ""
    assert page.value("throws") == "value"
    listed = page.driver.find_element(By.CSS_SELECTOR, "[data-script-errors]")
    assert listed.is_displayed()
    assert "thrown for value" in listed.text
    # A secure value typed on the page is masked in what is shown.
    page.type("hr_api_key", "typed-secret-9876")
    page.driver.execute_script("window.throwing = function () { throw new Error('key ' + utils.get('hr_api_key')); }")
    page.type("throws", "leak")
    page.wait_for(lambda d: "key ****" in note.text)
    assert "typed-secret-9876" not in note.text and "typed-secret-9876" not in listed.text
    # The next change that does not throw clears the field's note.
    page.driver.execute_script("window.throwing = function () { return ''; }")
    page.type("throws", "again")
    page.wait_for(lambda d: not note.is_displayed())


def test_a_thrown_top_level_exception_of_the_script_is_shown(app_copy, preview, open_page):
    app = app_copy(ALL_TYPES)
    script = app / "config/assets/iparams.js"
    script.write_text(script.read_text() + "\nundefinedFunction();\n")
    page = open_page(preview(app))
    listed = page.driver.find_element(By.CSS_SELECTOR, "[data-script-errors]")
    page.wait_for(lambda d: listed.is_displayed())
    assert "config/assets/iparams.js:" in listed.text and "undefinedFunction" in listed.text, listed.text


def test_the_header_names_the_app_folder(app_copy, preview, open_page):
    app = app_copy(ALL_TYPES)
    page = open_page(preview(".", cwd=app))
    assert page.driver.find_element(By.CSS_SELECTOR, "[data-app-name]").text == "all-types"


def test_a_reload_clears_a_stale_failure(app_copy, preview, open_page):
    app = app_copy(ALL_TYPES)
    with_iparam(app, "region", {"display_name": "Region", "type": "text", "visible": False, "required": True})
    page = open_page(preview(app))
    fill_required(page, "some-key-1234")
    assert page.install() == ("failed", "Validation failed.")
    assert top_problems(page)
    body = page.driver.find_element(By.TAG_NAME, "body")
    version = body.get_attribute("data-version")
    # The fix on disk: the hidden field gets a default; the page reloads.
    with_iparam(app, "region", {"display_name": "Region", "type": "text", "visible": False, "required": True, "default_value": "eu"})
    page.wait_for(lambda d: body.get_attribute("data-version") != version)
    status = page.driver.find_element(By.CSS_SELECTOR, "[data-install-status]")
    assert status.text == "" and status.get_attribute("data-outcome") == ""
    assert top_problems(page) == []
    assert not page.driver.find_element(By.CSS_SELECTOR, "[data-install-problems]").is_displayed()


def test_callbacks_get_sample_product_data_and_unknown_calls_reject(app_copy, preview, open_page):
    page = open_page(preview(app_copy(ALL_TYPES)))
    got = page.driver.execute_async_script(
        "const done = arguments[0];"
        "client.data.get('loggedInUser').then(u => client.data.get('domainName').then(d => done([u.loggedInUser.name, d.domainName])))"
    )
    assert got[0] == "Sample Agent" and got[1].startswith("acme."), got
    # A call the preview does not have rejects naming itself (no TypeError in the callback).
    message = page.driver.execute_async_script(
        "const done = arguments[0]; client.db.get('x').then(() => done('resolved'), e => done(e.message))"
    )
    assert message == "client.db.get() is not available in the iparams-lint preview of an installation page", message
    unknown = page.driver.execute_async_script(
        "const done = arguments[0]; client.data.get('nothing').then(() => done('resolved'), e => done(e.message))"
    )
    assert "the preview has no sample of it; it has loggedInUser" in unknown, unknown
