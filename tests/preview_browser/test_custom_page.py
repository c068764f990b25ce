"""Custom installation pages (config/iparams.html) in the frame of the preview's page: the fixture
app's, and real pages of the corpus read in place."""

import json
import stat
import urllib.request

from selenium.webdriver.common.by import By

CUSTOM = "fixtures/preview/custom-page"
# Real pages that work without the network (the browser has none): the Trello connector loads
# the client with {{{appclient}}} and only its own script; the Omni sample loads the vendor's
# fresh_client.js from the CDN (replaced by the preview's client) and only its own script.
TRELLO = "Akashramsankar__TrelloConnector"
OMNI = "h6__freshworks__marketplace-sample-apps__Freshworks-Samples_Omni-App-Samples_Custom-Installation-Page_Omni"


class CustomPage:
    """The preview's page around a custom page: the shell's parts, and the frame's elements."""

    def __init__(self, page):
        self.page = page
        self.driver = page.driver
        page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "iframe[data-custom-page]"))

    def in_frame(self, read):
        """`read(driver)` inside the frame, back in the shell after."""
        self.driver.switch_to.frame(self.driver.find_element(By.CSS_SELECTOR, "iframe[data-custom-page]"))
        try:
            return read(self.driver)
        finally:
            self.driver.switch_to.default_content()

    def text(self, css):
        return self.in_frame(lambda d: d.find_element(By.CSS_SELECTOR, css).text)

    def attribute(self, css, name):
        return self.in_frame(lambda d: d.find_element(By.CSS_SELECTOR, css).get_attribute(name))

    def wait_text(self, css, wanted, timeout=10):
        try:
            self.page.wait_for(lambda d: wanted(self.text(css)), timeout)
        except Exception as exc:
            raise AssertionError(f"{css}: {self.text(css)!r}") from exc

    def type(self, css, text):
        self.in_frame(lambda d: d.find_element(By.CSS_SELECTOR, css).send_keys(text))

    def click(self, css):
        self.in_frame(lambda d: d.find_element(By.CSS_SELECTOR, css).click())

    def problems(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#install-problems-list li'), li => li.textContent)"
        )

    def findings(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#top-findings li'), li => li.getAttribute('data-finding'))"
        )


def store(url, values):
    """Values stored as an INSTALL before would have (what the page's getConfigs then gets)."""
    request = urllib.request.Request(
        url.replace("/custom_configs", "/custom_configs/store"),
        data=json.dumps(values).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200


def test_the_fixture_page_is_served_in_the_frame_with_the_preview_client(app_copy, preview, open_page, sandbox):
    app = app_copy(CUSTOM)
    key = sandbox["tokens"]["hr_partner"]
    url = preview(app, "--hr-url", sandbox["url"])
    custom = CustomPage(open_page(url))
    # The app's findings, from the linter's check of the app, in the panel.
    assert "query-string-in-path" in custom.findings()
    # The client: sample data, the stored values (none yet), a call it does not know.
    custom.wait_text("#user", lambda t: t == "agent@acme.freshdesk.com")
    custom.wait_text("#iparams", lambda t: t == "{}")
    custom.click("#unknown")
    custom.wait_text("#unknown-result", lambda t: t.startswith("client.db.get() is not available"))
    # Its relative style sheet came from config/assets.
    assert custom.in_frame(
        lambda d: d.execute_script("return getComputedStyle(document.getElementById('company-error')).color")
    ) == "rgb(200, 30, 30)"
    # interface.trigger is shown on the preview's page.
    custom.click("#notify")
    custom.page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-interface-call="showNotify"]'))
    shown = custom.driver.find_element(By.CSS_SELECTOR, '[data-interface-call="showNotify"]').text
    assert "Settings look fine" in shown, shown

    # validate() false stops INSTALL, and the page says why in its own words.
    outcome, text = custom.page.install()
    assert (outcome, text) == ("failed", "Validation failed.")
    assert any("validate() returned false" in p for p in custom.problems()), custom.problems()
    assert custom.text("#company-error") == "Company is required"
    assert not (app / ".iparams-lint/installed.json").exists()

    custom.type("#company", "Acme")
    custom.type("#hr_domain", "acme")
    custom.type("#hr_api_key", key)
    outcome, text = custom.page.install()
    assert outcome == "passed", (text, custom.problems())
    values = app / ".iparams-lint/installed.json"
    assert json.loads(values.read_text()) == {"company": "Acme", "hr_domain": "acme", "hr_api_key": key, "__meta": {"secure": ["hr_api_key"]}}
    assert stat.S_IMODE(values.stat().st_mode) == 0o600
    assert "query-string-in-path" in custom.findings()

    # A template call made by the server with the stored values, the key among them.
    custom.click("#lookup")
    custom.wait_text("#lookup-result", lambda t: t.startswith("found "))

    # Opened again: getConfigs gets the stored values without the secure one.
    custom = CustomPage(open_page(url))
    custom.wait_text("#iparams", lambda t: t == json.dumps({"company": "Acme", "hr_domain": "acme"}, separators=(",", ":")))
    assert custom.attribute("#company", "value") == "Acme"
    assert custom.attribute("#hr_api_key", "value") == ""
    assert custom.attribute("#hr_api_key", "placeholder") == "stored, not shown"
    assert key not in custom.driver.page_source
    assert key not in custom.in_frame(lambda d: d.page_source)
    # INSTALL again without the key: it is kept.
    custom.type("#company", " Corp")
    assert custom.page.install()[0] == "passed"
    assert json.loads(values.read_text()) == {"company": "Acme Corp", "hr_domain": "acme", "hr_api_key": key, "__meta": {"secure": ["hr_api_key"]}}


def test_a_page_without_post_configs_is_told_so(app_copy, preview, open_page):
    app = app_copy(CUSTOM)
    page_file = app / "config/iparams.html"
    page_file.write_text(page_file.read_text().replace("function postConfigs()", "function otherName()"))
    custom = CustomPage(open_page(preview(app)))
    custom.type("#company", "Acme")
    outcome, _ = custom.page.install()
    assert outcome == "failed"
    assert any("The page defines no postConfigs()" in p for p in custom.problems()), custom.problems()
    assert not (app / ".iparams-lint/installed.json").exists()


def test_a_real_page_loading_the_app_client(corpus_app, preview, open_page, tmp_path):
    app = corpus_app(TRELLO)
    if app is None:
        return
    values = tmp_path / "installed.json"
    url = preview(app, "--values", str(values))
    custom = CustomPage(open_page(url))
    custom.wait_text("h3", lambda t: t == "Trello Connector")
    # Its first template call is made by the server, offline: the page shows its own error.
    custom.wait_text("#trelloMessage", lambda t: "Trello sign-in link is not ready yet" in t)
    # Its validate() says no until Trello is connected; INSTALL stops.
    outcome, _ = custom.page.install()
    assert outcome == "failed"
    assert any("validate() returned false" in p for p in custom.problems()), custom.problems()
    assert not values.exists()
    # Stored values (as an earlier INSTALL left them) go to its getConfigs, the secure one left out.
    store(url, {"__meta": {"secure": ["api_key"]}, "domain": "acme.freshdesk.com", "api_key": "c2VjcmV0LWtleS0xMjM0"})
    custom = CustomPage(open_page(url))
    custom.page.wait_for(lambda d: custom.attribute("#domain", "value") == "acme.freshdesk.com")
    assert custom.attribute("#apiKey", "value") == ""
    assert "c2VjcmV0LWtleS0xMjM0" not in custom.in_frame(lambda d: d.page_source)


def test_a_real_page_loading_the_vendor_client(corpus_app, preview, open_page, tmp_path):
    app = corpus_app(OMNI)
    if app is None:
        return
    values = tmp_path / "installed.json"
    custom = CustomPage(open_page(preview(app, "--values", str(values))))
    # The preview's client, in place of the vendor's fresh_client.js: its script reads
    # client.context.productContext (the manifest's first product).
    product = custom.in_frame(
        lambda d: d.execute_async_script(
            "const done = arguments[0]; app.initialized().then(c => done(c.context.productContext.name))"
        )
    )
    assert product == "freshsales"
    custom.wait_text("header", lambda t: "Freshsales" in t)
    # validate(): the date is required.
    outcome, _ = custom.page.install()
    assert outcome == "failed"
    assert any("validate() returned false" in p for p in custom.problems()), custom.problems()
    custom.in_frame(
        lambda d: d.execute_script("document.getElementById('date-picker').value = '2026-03-04'")
    )
    # Its postConfigs() names a variable it never declares: the preview's page says so.
    outcome, _ = custom.page.install()
    assert outcome == "failed"
    problems = custom.problems()
    assert any("postConfigs() threw ReferenceError: field_domain is not defined" in p for p in problems), problems
    assert not values.exists()


def test_an_edit_of_the_page_on_disk_reloads_the_frame(app_copy, preview, open_page):
    app = app_copy(CUSTOM)
    custom = CustomPage(open_page(preview(app)))
    custom.wait_text("h3", lambda t: t == "HR lookup")
    page_file = app / "config/iparams.html"
    page_file.write_text(page_file.read_text().replace("<h3>HR lookup</h3>", "<h3>HR lookup, edited</h3>"))
    custom.wait_text("h3", lambda t: t == "HR lookup, edited")


def test_scripts_from_other_hosts_are_blocked_and_said_so(app_copy, preview, open_page):
    app = app_copy(CUSTOM)
    page_file = app / "config/iparams.html"
    page_file.write_text(page_file.read_text().replace(
        '<link rel="stylesheet" href="./assets/iparams.css" />',
        '<script type="module" src="https://cdn.jsdelivr.net/npm/@freshworks/crayons/dist/crayons/crayons.esm.js"></script>',
    ))
    custom = CustomPage(open_page(preview(app)))
    banner = custom.driver.find_element(By.CSS_SELECTOR, "[data-remote-blocked]")
    custom.page.wait_for(lambda d: banner.is_displayed())
    assert "cdn.jsdelivr.net" in banner.text and "--allow-remote-scripts" in banner.text, banner.text
    # The page's own inputs still work with the preview's client.
    custom.wait_text("h3", lambda t: t == "HR lookup")
    # With the flag, the banner is gone and the notes say what is loaded.
    custom = CustomPage(open_page(preview(app, "--allow-remote-scripts")))
    custom.wait_text("h3", lambda t: t == "HR lookup")
    banner = custom.driver.find_element(By.CSS_SELECTOR, "[data-remote-blocked]")
    assert not banner.is_displayed()
    notes = custom.driver.find_element(By.ID, "notes-list").text
    assert "loaded (--allow-remote-scripts): this page loads from cdn.jsdelivr.net" in notes, notes
