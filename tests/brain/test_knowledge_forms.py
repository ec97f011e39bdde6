"""The form a question asks for, and that thing taken from the sentence that answers it."""

from __future__ import annotations

import pytest

from bunseki.brain.knowledge.offline.forms import asked_form, lead


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("ls で隠しファイルも表示するにはどのオプションを使いますか", "option"),
        ("Which flag makes grep ignore case?", "option"),
        ("ロケールを決める環境変数は？", "setting"),
        ("Which field names the maintainer of a package?", "setting"),
        ("APT の取得元はどのファイルに書きますか", "path"),
        ("Where are the logs stored?", "path"),
        ("パッケージを検索するコマンドは？", "command"),
        ("Which command lists the files of an installed package?", "command"),
        ("起動時のターゲットを表示するコマンドを教えてください", "command"),
        ("ブロックサイズの既定値は何バイトですか", "number"),
        ("How many lines does head print by default?", "number"),
        ("When was the release frozen?", "date"),
        ("スナップショットとは何ですか", "definition"),
        ("What counts as a word for wc?", "definition"),
        ("How do I upgrade every package?", "procedure"),
        ("Can I install packages from Ubuntu?", "yesno"),
        ("Debian の雰囲気について", None),
        ("プリンターの電源ボタンはどこにありますか", None),  # a place, not a file; and not yes or no
        # the noun asked for decides, whatever else the question mentions
        ("In the Settings dialog, which file holds the saved layout?", "path"),
        ("キャッシュの保存先を決める設定項目名は何ですか", "setting"),
        ("Which TCP port does the admin console listen on?", "number"),
        ("Which log level does it use by default?", None),  # a level may be a name (warn), not a number
        ("Is there a tool that converts the old format?", "command"),
        ("What is this subcommand called now?", "command"),
        ("ログを圧縮するツールを教えてください", "command"),
        ("出力先のディレクトリの名前は何ですか", "path"),
        # the meaning asked for, before the nouns the question names
        ("設定ファイルの mode フィールドが 0 なのはどういう意味ですか", "definition"),
        ("What does the value 'any' mean in the Arch field?", "definition"),
        # "when" that sets a condition, not a date asked for
        ("How do I skip hidden files when copying a folder?", "procedure"),
        ("When the server is restarted, what happens to queued jobs?", None),
        # Japanese yes/no only without a question word; procedures asked as 〜には？ or どうしたら
        ("一時ファイルの置き場所は何ですか", None),
        ("印刷を中止するには？", "procedure"),
        ("仮想マシンを止めるにはどうしたらいいですか", "procedure"),
        ("On Debian, egrep is the same as which grep invocation?", "command"),
    ],
)
def test_the_form_asked_for_is_told_from_the_question(question: str, form: str | None) -> None:
    assert asked_form(question) == form


@pytest.mark.parametrize(
    ("form", "unit", "span"),
    [
        ("option", "-a, --all: . で始まる要素を無視しない", "-a, --all"),
        ("option", "Use the -i option to make the match ignore case.", "-i"),
        ("setting", "LC_ALL: overrides every other locale variable.", "LC_ALL"),
        ("setting", "The Maintainer field holds the maintainer's name and address.", "Maintainer"),
        ("path", "APT reads its sources from /etc/apt/sources.list and the files below it.", "/etc/apt/sources.list"),
        ("path", "Edit debian/control to change the description.", "debian/control"),
        ("number", "-n, --lines=NUM: print the first NUM lines instead of the first 10", "10"),
        ("number", "Idle sessions are signed out after 30 minutes.", "30 minutes"),
        ("command", "search: パッケージを検索します。", "search"),
        ("command", "These programs are the same as grep -E, grep -F, and grep -r.", "grep -E"),
        ("command", "パッケージを固定するには apt-mark hold パッケージ名 を実行します。", "apt-mark hold"),
        ("command", "Debian also includes the variant programs egrep, fgrep and rgrep.", None),
        ("definition", "A snapshot is a saved copy of the data.", None),
        (None, "-a, --all: everything", None),
    ],
)
def test_the_asked_thing_is_taken_from_the_answering_unit(form: str | None, unit: str, span: str | None) -> None:
    assert lead(form, unit) == span  # type: ignore[arg-type]


def test_the_asked_thing_is_never_one_the_question_names() -> None:
    unit = "-y, --assume-yes: これは設定オプション Aptitude::CmdLine::Assume-Yes に相当します。"
    assert lead("setting", unit, "aptitude の -y と同じ効果の設定オプション名は？") == "Aptitude::CmdLine::Assume-Yes"
    port = "プロバイダーによるポート25 ブロッキングを避けてサブミッションポート (587) を使います"
    assert lead("number", port, "ポート25を避けて送るときのポートは何番？") == "587"
    assert lead("number", "CRAM-MD5 で認証します。", "何番？") is None  # a digit inside a name is no number
