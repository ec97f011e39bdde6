"""End to end in headless Chromium: `bunseki ui` on 127.0.0.1, a Japanese CSV uploaded, a question
that needs a chart, and the answer, the chart and the report on the page.

Drives Debian's chromium and chromium-driver packages (`make setup` installs them as root) with
Selenium; nothing is downloaded. The screenshot is kept in test-artifacts/ui/.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

from tests.ui.conftest import JapaneseTable

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or CHROMEDRIVER is None,
        reason="needs Debian's chromium and chromium-driver packages: make setup installs them when run as root",
    ),
]

REPOSITORY = Path(__file__).resolve().parents[2]
QUESTION = "地域別の売上合計をグラフにして"
START_S = 120  # ceilings for waiting, never measurements
ANSWER_S = 300


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@pytest.fixture
def server(ui_workspace: Path, tmp_path: Path) -> Iterator[str]:
    """`bunseki ui` as a person starts it, on a free port of 127.0.0.1; stopped afterwards."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "bunseki", "ui", "--host", "127.0.0.1", "--port", str(port)],
            stdout=output,
            stderr=subprocess.STDOUT,
            env=dict(os.environ),  # BUNSEKI_WORKSPACE_ROOT from ui_workspace
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + START_S
        while not healthy(url):
            assert process.poll() is None, f"bunseki ui exited:\n{log.read_text(errors='replace')}"
            assert time.monotonic() < deadline, f"bunseki ui did not answer:\n{log.read_text(errors='replace')}"
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # the server and anything it started
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--disable-dev-shm-usage", "--window-size=1400,2600", "--lang=ja-JP"):
        options.add_argument(argument)
    # Only the app on 127.0.0.1 is to be reached: none of the browser's own background traffic.
    for argument in ("--disable-background-networking", "--disable-component-update", "--no-first-run"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium's own sandbox refuses to run as root
    options.add_experimental_option("prefs", {"intl.accept_languages": "ja,ja-JP"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def artifacts_dir(fallback: Path) -> Path:
    directory = REPOSITORY / "test-artifacts" / "ui"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return fallback  # a read-only checkout: keep it with the test's temporary files
    return directory if os.access(directory, os.W_OK) else fallback


def test_upload_ask_and_see_the_chart_and_report_in_chromium(
    server: str, browser: WebDriver, sales_table: JapaneseTable, tmp_path: Path
) -> None:
    data_file = tmp_path / sales_table.name
    data_file.write_bytes(sales_table.content)  # CP932, as Excel saves it in Japan

    def page_text() -> str:
        return str(browser.find_element(By.TAG_NAME, "body").text)

    browser.get(server)
    wait = WebDriverWait(browser, START_S)
    upload = wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, 'input[type="file"]')))
    assert "Bunseki 分析チャット" in page_text()  # Japanese, because the browser asks for it
    upload.send_keys(str(data_file))
    wait.until(lambda _: "元のデータ（12 行）" in page_text())

    question = wait.until(
        ready.element_to_be_clickable((By.CSS_SELECTOR, 'textarea[data-testid="stChatInputTextArea"]'))
    )
    question.send_keys(QUESTION)
    question.send_keys(Keys.ENTER)

    chart = '[data-testid="stChatMessage"] [data-testid="stImage"] img'
    WebDriverWait(browser, ANSWER_S).until(
        lambda _: any(
            browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image)
            for image in browser.find_elements(By.CSS_SELECTOR, chart)
        )
    )
    wait.until(lambda _: "ノートブック (.ipynb)" in page_text())  # the report's downloads are drawn last

    screenshot = artifacts_dir(tmp_path) / "analysis_chat.png"
    browser.save_screenshot(str(screenshot))
    print(f"screenshot: {screenshot}")

    text = page_text()
    assert QUESTION in text
    assert all(sales_table.total(region) in text for region in ("関東", "関西", "九州")), "the answer's numbers"
    titles = [heading.text for heading in browser.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"] h3')]
    assert any("地域" in title for title in titles), f"the report's title, got {titles}"
    assert "追加の分析案" in text  # the report's suggestions
    assert "report.md" in text and "HTML レポート" in text
    assert "思考プロセス" in text
    assert "エラー" not in text and "Traceback" not in text
    assert screenshot.stat().st_size > 10_000


def _click_button(browser: WebDriver, wait: WebDriverWait[WebDriver], label: str) -> None:
    button = wait.until(ready.element_to_be_clickable((By.XPATH, f"//button[.//p[normalize-space()='{label}']]")))
    button.click()


def test_an_eda_run_is_planned_reviewed_and_reported_in_chromium(
    server: str, browser: WebDriver, sales_table: JapaneseTable, tmp_path: Path
) -> None:
    data_file = tmp_path / sales_table.name
    data_file.write_bytes(sales_table.content)

    def page_text() -> str:
        return str(browser.find_element(By.TAG_NAME, "body").text)

    browser.get(f"{server}/eda")
    wait = WebDriverWait(browser, START_S)
    upload = wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, 'input[type="file"]')))
    assert "探索的データ分析" in page_text()
    upload.send_keys(str(data_file))
    wait.until(lambda _: sales_table.name in page_text())
    _click_button(browser, wait, "分析を始める")
    slow = WebDriverWait(browser, ANSWER_S)
    slow.until(lambda _: "計画の確認待ち" in page_text())
    _click_button(browser, wait, "承認して進める")
    slow.until(lambda _: "結果の確認待ち" in page_text())
    chart = '[data-testid="stImage"] img'
    slow.until(
        lambda _: any(
            browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image)
            for image in browser.find_elements(By.CSS_SELECTOR, chart)
        )
    )
    _click_button(browser, wait, "承認して進める")
    slow.until(lambda _: "ノートブック (.ipynb)" in page_text())
    screenshot = artifacts_dir(tmp_path) / "eda.png"
    browser.save_screenshot(str(screenshot))
    text = page_text()
    assert "完了" in text and "HTML レポート" in text
    assert "Traceback" not in text
