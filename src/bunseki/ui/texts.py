"""Every word the web UI shows, in Japanese and English, and the choice between them.

A template's ``{…}`` fields are filled in by `Texts.__call__`. Japanese is the default when the
browser asks for it (its language, or the first choice of its Accept-Language header).
"""

from __future__ import annotations

from typing import Final

from bunseki.domain import Language

LANGUAGE_NAMES: Final[dict[Language, str]] = {"ja": "日本語", "en": "English"}

JA: Final[dict[str, str]] = {
    "app_title": "Bunseki 分析チャット",
    "page_analysis": "分析チャット",
    "tagline": "表をアップロードして、日本語か英語で質問してください。答えの数値はすべて実行したコードから得ています。",
    "language": "言語 / Language",
    # EDA page
    "page_eda": "探索的データ分析",
    "eda_title": "Bunseki 探索的データ分析（EDA）",
    "eda_caption": "表を渡すと、検証・概要・分析計画を作ります。計画と結果を確認してから、レポートにまとめます。",
    "eda_welcome": "データファイルをアップロードし、必要なら目的を書いて「分析を始める」を押してください。",
    "eda_goal": "分析の目的（任意）",
    "eda_goal_placeholder": "例: 売上に影響する要因を知りたい",
    "eda_start": "分析を始める",
    "eda_no_file": "まずデータファイルを選んでください。",
    "eda_runs": "EDA の実行",
    "eda_new_run": "新しい EDA",
    "eda_no_runs": "まだ実行はありません。",
    "eda_waiting": "確認待ちの実行が {count} 件あります。",
    "eda_pick_run": "実行を選ぶ",
    "eda_open_run": "開く",
    "eda_run_line": "状態: **{status}** · 実行 ID: `{run_id}`",
    "eda_goal_line": "目的: {goal}",
    "eda_error": "エラーで終了しました: {error}",
    "eda_profile": "データの概要（{rows:,} 行 × {columns} 列）と見つかった問題",
    "eda_plan": "分析計画の確認",
    "eda_keep": "実行する",
    "eda_feedback": "修正の依頼（任意）",
    "eda_feedback_placeholder": "例: 地域別の売上金額を追加して / ステップ3を削除 / 売上に絞って",
    "eda_approve": "承認して進める",
    "eda_send_feedback": "修正を依頼する",
    "eda_stop": "中止する",
    "eda_drop_steps": "ステップ{steps}を削除",
    "eda_empty_feedback": "チェックを外すか、修正内容を書いてから依頼してください。",
    "eda_results_review": "結果の確認",
    "eda_failed_steps": "ステップ {steps} は再試行しても失敗しました。修正を依頼するか、このまま承認できます。",
    "eda_findings": "分析結果",
    "eda_missing_file": "ファイル {path} が見つかりません。",
    "eda_report": "レポート",
    "eda_report_markdown": "レポート本文",
    "eda_download_md": "Markdown (.md)",
    "eda_download_html": "HTML レポート",
    "eda_download_ipynb": "ノートブック (.ipynb)",
    "eda_stopped": "この実行は中止されました。ここまでの結果を表示しています。",
    "eda_working": "処理しています…",
    "eda_step": "ステップ {step}",
    "eda_step_failed": "✗ 失敗しました（エラーを見てやり直します）",
    "eda_node_validate_data": "データを検証しています",
    "eda_node_plan_analysis": "分析計画を立てています",
    "eda_node_generate_code": "コードを書いています",
    "eda_node_execute_code": "コードを実行しています",
    "eda_node_integrate_results": "結果をまとめています",
    "eda_node_generate_report": "レポートを書いています",
    "eda_node_handle_error": "エラーを記録しています",
    "eda_status_running": "実行中",
    "eda_status_awaiting_plan_review": "計画の確認待ち",
    "eda_status_awaiting_results_review": "結果の確認待ち",
    "eda_status_completed": "完了",
    "eda_status_stopped": "中止",
    "eda_status_error": "エラー",
    # data
    "upload_label": "データファイル（CSV・TSV・Excel・Parquet）",
    "upload_help": "文字コード（UTF-8、Shift_JIS／CP932、EUC-JP）と区切り文字は自動で判定します。",
    "welcome": "まず、分析したいデータのファイルをアップロードしてください。",
    "session_created": "「{name}」を読み込みました（{rows:,} 行 × {columns} 列）。質問をどうぞ。",
    "data_state": "**今のデータ**: {state}",
    "data_expander": "データのプレビューと概要",
    "data_notes": "読み込み時の前提",
    "sheet_intro": "「{name}」には {count} 枚のシートがあります。分析するシートを選んでください。",
    "sheet_label": "シート",
    "sheet_start": "このシートで始める",
    "sheet_cancel": "別のファイルにする",
    "data_file": "ファイル: {name}（{format}、文字コード {encoding}、元の行数 {rows:,}）",
    "preview_caption": "今のデータの先頭 {rows} 行",
    "rows": "行数",
    "columns": "列数",
    "memory": "メモリ",
    "numeric_columns": "数値の列",
    "categorical_columns": "カテゴリの列",
    "datetime_columns": "日付の列",
    "column": "列",
    "dtype": "型",
    "none": "なし",
    "download_csv": "今のデータを CSV でダウンロード",
    # chat
    "chat_placeholder": "データについて質問してください（例: 地域別の売上合計をグラフにして）",
    "chat_busy": "回答中です。終わるまでお待ちください…",
    "working": "分析しています…",
    "done": "完了しました",
    "failed": "最後まで進めませんでした",
    "node_reason": "考えています",
    "node_code_exec": "コードを実行しています",
    "node_tool_exec": "データを操作しています",
    "node_report": "レポートを書いています",
    "progress_ok": "✓ 実行しました",
    "progress_failed": "✗ 失敗しました（やり直します）: {error}",
    "running_elsewhere": "この質問は別の画面かプロセスで回答中です。",
    "asked_offline": (
        "オフラインの分析エンジンは、この質問にそのままでは答えられませんでした。上の問いに答えるか、"
        "合計・平均・件数・割合・推移・上位・グラフなど、データの列を使った質問に言い換えてください。"
        "API キーを設定すれば、サイドバーでほかのモデルも選べます。"
    ),
    "limit_reached": "分析のステップが上限に達したため、ここまでの結果をまとめました。",
    "turn_error": "この質問には最後まで答えられませんでした。言い換えてもう一度お試しください。",
    # thought process
    "thought": "思考プロセス",
    "thought_step": "ステップ {n}",
    "action_act": "分析を実行",
    "action_ask": "質問を返す",
    "action_finalize": "まとめる",
    "rationale": "判断の理由",
    "instruction": "指示",
    "assumption": "前提",
    "code": "コード",
    "output": "出力",
    "error": "エラー",
    "retry": "再試行",
    "tool": "データ操作: {tool}",
    "rows_change": "行数: {before:,} → {after:,}",
    "files": "ファイル: {files}",
    "thought_from_store": "開き直したセッションのため判断の理由は残っていません。実行した操作と結果を表示します。",
    "thought_empty": "この質問ではコードもデータ操作も実行していません。",
    # report
    "downloads": "レポートをダウンロード",
    "download_md": "report.md",
    "download_html": "HTML レポート",
    "download_ipynb": "ノートブック (.ipynb)",
    # sidebar
    "sessions": "セッション",
    "new_session": "新しいセッション",
    "past_sessions": "過去のセッション",
    "resume": "再開する",
    "no_sessions": "まだセッションはありません。",
    "current_session": "開いているセッション: **{title}**（{name}）",
    "model": "モデル",
    "model_help": "offline は API キーなしで動く内蔵の分析エンジンです。ほかは API キーを設定したものだけが出ます。",
    "model_changed": "このセッションのモデルを {model} にしました。",
    "clear_history": "会話履歴を消去",
    "history_cleared": "会話履歴を消去しました（データ・スナップショット・レポートは残ります）。",
    "steps": "データ操作の履歴",
    "no_steps": "まだ操作はありません。",
    "snapshots": "スナップショット",
    "snapshot_name": "スナップショットの名前",
    "snapshot_save": "今のデータを保存",
    "snapshot_saved": "スナップショット「{name}」を保存しました。",
    "snapshot_name_needed": "スナップショットの名前を入力してください。",
    "no_snapshots": "まだスナップショットはありません。",
    "restore": "戻す",
    "restored": "スナップショット「{name}」に戻しました。",
    "reset": "元のデータに戻す",
    "reset_done": "元のデータに戻しました。",
    # errors
    "error_bad_file": "このファイルは読み込めませんでした。CSV・TSV・Excel（.xlsx）・Parquet か確かめてください。",
    "error_model": "選ばれたモデルはまだ使えません。API キーを設定するか、サイドバーで offline を選んでください。",
    "error_busy": "このセッションはほかの質問に回答中です。終わってからもう一度お試しください。",
    "error_snapshot_name": "その名前のスナップショットはすでにあります。別の名前にしてください。",
    "error_question_too_long": "質問が長すぎます。短くするか、いくつかの質問に分けてください。",
    "error_not_found": "見つかりませんでした。一覧から選び直してください。",
    "error_storage": "データベースを使えません。設定（BUNSEKI_DATABASE_URL）とディスクの空きを確かめてください。",
    "error_sandbox": "分析を実行する環境（サンドボックス）を使えません。`bunseki doctor` で原因を確かめられます。",
    "error_model_failed": "モデルから使える回答を得られませんでした。少し待ってからもう一度お試しください。",
    "error_input": "入力をそのままでは使えませんでした。",
    "error_unexpected": "思いがけないエラーが起きました。もう一度お試しください。",
    "error_detail": "詳細: {detail}",
}

EN: Final[dict[str, str]] = {
    "app_title": "Bunseki analysis chat",
    "page_analysis": "Analysis chat",
    "tagline": "Upload a table and ask in English or Japanese. Every number in an answer comes from code that was run.",
    "language": "言語 / Language",
    # EDA page
    "page_eda": "Exploratory analysis",
    "eda_title": "Bunseki exploratory data analysis (EDA)",
    "eda_caption": (
        "Hand over a table: it is validated, profiled and planned; "
        "you review the plan and the results, then get a report."
    ),
    "eda_welcome": "Upload a data file, optionally say what the analysis is for, and press “Start the analysis”.",
    "eda_goal": "What is the analysis for? (optional)",
    "eda_goal_placeholder": "e.g. what drives sales",
    "eda_start": "Start the analysis",
    "eda_no_file": "Choose a data file first.",
    "eda_runs": "EDA runs",
    "eda_new_run": "New EDA",
    "eda_no_runs": "No runs yet.",
    "eda_waiting": "{count} run(s) wait for your review.",
    "eda_pick_run": "Choose a run",
    "eda_open_run": "Open",
    "eda_run_line": "Status: **{status}** · run id: `{run_id}`",
    "eda_goal_line": "Goal: {goal}",
    "eda_error": "The run ended with an error: {error}",
    "eda_profile": "Overview of the data ({rows:,} rows × {columns} columns) and the problems found",
    "eda_plan": "Review the analysis plan",
    "eda_keep": "Run",
    "eda_feedback": "What to change (optional)",
    "eda_feedback_placeholder": "e.g. add sales by region / drop step 3 / focus on sales",
    "eda_approve": "Approve and continue",
    "eda_send_feedback": "Send the changes",
    "eda_stop": "Stop",
    "eda_drop_steps": "drop step {steps}",
    "eda_empty_feedback": "Untick a step or write what to change first.",
    "eda_results_review": "Review the results",
    "eda_failed_steps": "Step(s) {steps} failed even after a retry. Ask for changes, or approve as they are.",
    "eda_findings": "Findings",
    "eda_missing_file": "The file {path} is missing.",
    "eda_report": "Report",
    "eda_report_markdown": "The report's text",
    "eda_download_md": "Markdown (.md)",
    "eda_download_html": "HTML report",
    "eda_download_ipynb": "Notebook (.ipynb)",
    "eda_stopped": "This run was stopped; here is what it produced.",
    "eda_working": "Working…",
    "eda_step": "step {step}",
    "eda_step_failed": "✗ failed (retrying with the error)",
    "eda_node_validate_data": "Validating the data",
    "eda_node_plan_analysis": "Planning the analysis",
    "eda_node_generate_code": "Writing code",
    "eda_node_execute_code": "Running code",
    "eda_node_integrate_results": "Reading the results",
    "eda_node_generate_report": "Writing the report",
    "eda_node_handle_error": "Recording the error",
    "eda_status_running": "running",
    "eda_status_awaiting_plan_review": "waiting for plan review",
    "eda_status_awaiting_results_review": "waiting for results review",
    "eda_status_completed": "completed",
    "eda_status_stopped": "stopped",
    "eda_status_error": "error",
    # data
    "upload_label": "Data file (CSV, TSV, Excel, Parquet)",
    "upload_help": "The encoding (UTF-8, Shift_JIS/CP932, EUC-JP) and the delimiter are detected for you.",
    "welcome": "Start by uploading the file with the data you want to analyse.",
    "session_created": "Loaded “{name}” ({rows:,} rows × {columns} columns). Ask away.",
    "data_state": "**Active data**: {state}",
    "data_expander": "Preview and overview of the data",
    "data_notes": "How the file was read",
    "sheet_intro": "“{name}” has {count} sheets. Choose the one to analyse.",
    "sheet_label": "Sheet",
    "sheet_start": "Start with this sheet",
    "sheet_cancel": "Choose another file",
    "data_file": "File: {name} ({format}, encoding {encoding}, {rows:,} rows as uploaded)",
    "preview_caption": "The first {rows} rows of the active data",
    "rows": "Rows",
    "columns": "Columns",
    "memory": "Memory",
    "numeric_columns": "Numeric columns",
    "categorical_columns": "Categorical columns",
    "datetime_columns": "Date columns",
    "column": "Column",
    "dtype": "Type",
    "none": "none",
    "download_csv": "Download the active data as CSV",
    # chat
    "chat_placeholder": "Ask about your data (e.g. total sales by region as a chart)",
    "chat_busy": "Answering; please wait until it finishes…",
    "working": "Analysing…",
    "done": "Done",
    "failed": "Could not finish",
    "node_reason": "Reasoning",
    "node_code_exec": "Running code",
    "node_tool_exec": "Applying a data tool",
    "node_report": "Writing the report",
    "progress_ok": "✓ ran",
    "progress_failed": "✗ failed (trying again): {error}",
    "running_elsewhere": "This question is being answered in another window or process.",
    "asked_offline": (
        "The built-in offline analyst could not answer this question as it stands. Answer the question above, or "
        "rephrase it in terms of the data's columns: totals, averages, counts, shares, trends, top items, charts. "
        "With an API key configured, other models can be chosen in the sidebar."
    ),
    "limit_reached": "The analysis reached its step limit, so this summarises the results so far.",
    "turn_error": "This question could not be answered to the end. Please rephrase it and try again.",
    # thought process
    "thought": "Thought process",
    "thought_step": "Step {n}",
    "action_act": "act",
    "action_ask": "ask back",
    "action_finalize": "finalize",
    "rationale": "Rationale",
    "instruction": "Instruction",
    "assumption": "Assumption",
    "code": "Code",
    "output": "Output",
    "error": "Error",
    "retry": "retry",
    "tool": "Data tool: {tool}",
    "rows_change": "Rows: {before:,} → {after:,}",
    "files": "Files: {files}",
    "thought_from_store": "This session was reopened, so the rationale is not kept; here is what ran and its results.",
    "thought_empty": "No code or data tool ran for this question.",
    # report
    "downloads": "Download the report",
    "download_md": "report.md",
    "download_html": "HTML report",
    "download_ipynb": "Notebook (.ipynb)",
    # sidebar
    "sessions": "Sessions",
    "new_session": "New session",
    "past_sessions": "Past sessions",
    "resume": "Resume",
    "no_sessions": "No sessions yet.",
    "current_session": "Open session: **{title}** ({name})",
    "model": "Model",
    "model_help": "offline is the built-in analyst that needs no API key; other models appear once their key is set.",
    "model_changed": "This session now uses {model}.",
    "clear_history": "Clear the history",
    "history_cleared": "The conversation was cleared (the data, snapshots and reports stay).",
    "steps": "Steps applied to the data",
    "no_steps": "No steps yet.",
    "snapshots": "Snapshots",
    "snapshot_name": "Snapshot name",
    "snapshot_save": "Save the active data",
    "snapshot_saved": "Saved the snapshot “{name}”.",
    "snapshot_name_needed": "Give the snapshot a name.",
    "no_snapshots": "No snapshots yet.",
    "restore": "Restore",
    "restored": "Restored the snapshot “{name}”.",
    "reset": "Back to the original data",
    "reset_done": "Back to the original data.",
    # errors
    "error_bad_file": "This file could not be read. Check that it is a CSV, TSV, Excel (.xlsx) or Parquet file.",
    "error_model": "The chosen model is not ready to use. Set its API key, or choose offline in the sidebar.",
    "error_busy": "This session is answering another question. Try again when it has finished.",
    "error_snapshot_name": "There is already a snapshot with that name. Choose another name.",
    "error_question_too_long": "The question is too long. Shorten it, or split it into several questions.",
    "error_not_found": "That could not be found. Please choose again from the list.",
    "error_storage": "The database cannot be used. Check BUNSEKI_DATABASE_URL and that the disk has room.",
    "error_sandbox": "The sandbox that runs the analysis is not available. `bunseki doctor` tells why.",
    "error_model_failed": "The model gave no usable answer. Wait a moment and try again.",
    "error_input": "The input could not be used as given.",
    "error_unexpected": "Something unexpected went wrong. Please try again.",
    "error_detail": "Details: {detail}",
}

TEXTS: Final[dict[Language, dict[str, str]]] = {"ja": JA, "en": EN}


class Texts:
    """The interface text of one language: ``texts("key", field=value)``."""

    def __init__(self, language: Language) -> None:
        self.language: Language = language
        self._table = TEXTS[language]

    def __call__(self, key: str, **fields: object) -> str:
        template = self._table[key]
        return template.format(**fields) if fields else template

    def get(self, key: str, default: str) -> str:
        """The text for ``key``, or ``default`` for a key it does not have (an unknown node name)."""
        return self._table.get(key, default)


def browser_language(locale: str | None, accept_language: str | None = None) -> Language:
    """Japanese when the browser's language, or else its most preferred one, is Japanese."""
    if locale:
        return _language_of(locale)
    if accept_language:
        return _language_of(_preferred(accept_language))
    return "en"


def _language_of(tag: str) -> Language:
    return "ja" if tag.strip().lower().replace("_", "-").split("-")[0] == "ja" else "en"


def _preferred(header: str) -> str:
    """The first language with the highest weight in an Accept-Language header."""
    best, best_weight = "", -1.0
    for item in header.split(","):
        tag, _, parameters = item.strip().partition(";")
        weight = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and weight > best_weight:
            best, best_weight = tag, weight
    return best


# --- the knowledge chat: its own block, so that other pages' texts merge without conflict ---

JA.update(
    {
        "page_knowledge": "ナレッジチャット",
        "kn_title": "Bunseki ナレッジチャット",
        "kn_caption": (
            "登録したドキュメントをもとに、エージェントが検索と推敲（Reflection）を重ねて回答します。"
            "回答の下に根拠とした箇所を示します。"
        ),
        "kn_documents": "元ドキュメント",
        "kn_qa": "登録済みの Q&A",
        "kn_qa_caption": "Q&A 表から登録した質問と回答（先頭 {count} 件）",
        "kn_choose_collections": "サイドバーでコレクションを選んでください。",
        "kn_no_documents": "選んだコレクションにはまだドキュメントがありません。",
        "kn_no_qa": "選んだコレクションには Q&A 表（質問と回答の列がある CSV・Excel）がありません。",
        "kn_no_collections": "まだコレクションがありません。サイドバーからドキュメントを取り込んでください。",
        "kn_col_collection": "コレクション",
        "kn_col_source": "ファイル",
        "kn_col_title": "タイトル",
        "kn_col_kind": "種類",
        "kn_col_chunks": "チャンク数",
        "kn_col_question": "質問",
        "kn_col_answer": "回答",
        "kn_settings": "設定",
        "kn_model": "モデル",
        "kn_model_help": (
            "offline は API キーなしで動く内蔵の回答エンジンです。ほかは API キーを設定したものだけが出ます。"
        ),
        "kn_collections": "検索するコレクション",
        "kn_collections_help": "エージェントはここで選んだコレクションだけを検索します。",
        "kn_collections_placeholder": "コレクションを選ぶ",
        "kn_clear": "会話履歴を消去",
        "kn_cleared": "会話履歴を消去しました。",
        "kn_upload": "ドキュメントを取り込む",
        "kn_upload_collection": "取り込み先のコレクション",
        "kn_upload_collection_help": "ない名前なら新しく作ります（空白・/・: などは使えません）。",
        "kn_default_collection": "docs",
        "kn_upload_files": "ドキュメント（Markdown・テキスト・HTML・PDF・コード・Q&A 表）",
        "kn_upload_help": (
            "文字コード（UTF-8、Shift_JIS／CP932、EUC-JP）は自動で判定します。同じ名前で送り直すと置き換えます。"
        ),
        "kn_upload_button": "取り込む",
        "kn_upload_nothing": "取り込むファイルを選んでください。",
        "kn_uploaded": (
            "「{collection}」に {files} 件を取り込みました（新しいチャンク {chunks} 件、変更なし {skipped} 件）。"
        ),
        "kn_upload_problem": "「{source}」は読み込めませんでした。",
        "kn_placeholder": "ドキュメントについて質問してください（例: パスワードを忘れたときは？）",
        "kn_placeholder_choose": "質問するには、サイドバーでコレクションを選んでください",
        "kn_thinking": "検索して考えています…",
        "kn_thought": "思考プロセス",
        "kn_no_thoughts": "記録された思考はありません。",
        "kn_step": "ステップ {n}",
        "kn_kind_thought": "思考",
        "kn_kind_tool_call": "ツール呼び出し",
        "kn_kind_observation": "観察",
        "kn_kind_draft": "回答案",
        "kn_kind_reflection": "推敲（Reflection）",
        "kn_reflection_changed": "推敲で回答案を書き直しました。",
        "kn_citations": "根拠",
        "kn_unanswered": "ドキュメントに答えが見つからなかったため、未回答の質問として記録しました。",
        "kn_error": "この質問には答えられませんでした。少し待ってからもう一度お試しください。",
        "kn_meta": "{model} · {seconds:.1f} 秒",
    }
)

EN.update(
    {
        "page_knowledge": "Knowledge chat",
        "kn_title": "Bunseki knowledge chat",
        "kn_caption": (
            "The agent answers from your documents, searching and then reviewing its draft (Reflection). "
            "Under each answer are the passages it rests on."
        ),
        "kn_documents": "Source documents",
        "kn_qa": "Registered Q&A",
        "kn_qa_caption": "Questions and answers from Q&A tables (the first {count})",
        "kn_choose_collections": "Choose collections in the sidebar.",
        "kn_no_documents": "The chosen collections hold no documents yet.",
        "kn_no_qa": "The chosen collections hold no Q&A table (a CSV or Excel file with question and answer columns).",
        "kn_no_collections": "There are no collections yet. Add documents from the sidebar.",
        "kn_col_collection": "Collection",
        "kn_col_source": "File",
        "kn_col_title": "Title",
        "kn_col_kind": "Kind",
        "kn_col_chunks": "Chunks",
        "kn_col_question": "Question",
        "kn_col_answer": "Answer",
        "kn_settings": "Settings",
        "kn_model": "Model",
        "kn_model_help": (
            "offline is the built-in answerer that needs no API key; other models appear once their key is set."
        ),
        "kn_collections": "Collections to search",
        "kn_collections_help": "The agent searches only the collections chosen here.",
        "kn_collections_placeholder": "Choose collections",
        "kn_clear": "Clear the history",
        "kn_cleared": "The conversation was cleared.",
        "kn_upload": "Add documents",
        "kn_upload_collection": "Collection to add them to",
        "kn_upload_collection_help": "A new name creates the collection (no spaces, '/', ':' and the like).",
        "kn_default_collection": "docs",
        "kn_upload_files": "Documents (Markdown, text, HTML, PDF, code, Q&A tables)",
        "kn_upload_help": (
            "The encoding (UTF-8, Shift_JIS/CP932, EUC-JP) is detected. A file sent again replaces itself."
        ),
        "kn_upload_button": "Add",
        "kn_upload_nothing": "Choose the files to add.",
        "kn_uploaded": "Added {files} files to “{collection}” ({chunks} new chunks, {skipped} unchanged).",
        "kn_upload_problem": "“{source}” could not be read.",
        "kn_placeholder": "Ask about your documents (e.g. what if I forget my password?)",
        "kn_placeholder_choose": "Choose collections in the sidebar to ask",
        "kn_thinking": "Searching and thinking…",
        "kn_thought": "Thought process",
        "kn_no_thoughts": "No thoughts were recorded.",
        "kn_step": "Step {n}",
        "kn_kind_thought": "thought",
        "kn_kind_tool_call": "tool call",
        "kn_kind_observation": "observation",
        "kn_kind_draft": "draft",
        "kn_kind_reflection": "Reflection",
        "kn_reflection_changed": "Reflection rewrote the draft.",
        "kn_citations": "Sources",
        "kn_unanswered": "The documents hold no answer, so the question was logged as unanswered.",
        "kn_error": "This question could not be answered. Wait a moment and try again.",
        "kn_meta": "{model} · {seconds:.1f} s",
    }
)


# --- the investigator: its own block, so that other pages' texts merge without conflict ---

JA.update(
    {
        "page_investigations": "アルゴリズム調査",
        "inv_title": "Bunseki アルゴリズム調査",
        "inv_caption": (
            "時系列アルゴリズムの出力が期待と食い違う原因を、データ確認・不整合の特定・仮説・実行による検証で調べ、"
            "データセットごとにレポートにします。"
        ),
        "inv_welcome": (
            "ケース（マニフェスト case.yaml・仕様・コード・CSV）を zip か tar(.gz) にまとめてアップロードし、"
            "「調査を始める」を押してください。"
        ),
        "inv_upload": "ケースのアーカイブ（zip・tar・tar.gz）",
        "inv_start": "調査を始める",
        "inv_no_file": "まずケースのアーカイブを選んでください。",
        "inv_runs": "調査の一覧",
        "inv_new": "新しい調査",
        "inv_no_runs": "まだ調査はありません。",
        "inv_pick": "調査を選ぶ",
        "inv_open": "開く",
        "inv_run_line": "状態: **{status}** · ケース: **{case}** · 調査 ID: `{run_id}`",
        "inv_error": "エラーで終了しました: {error}",
        "inv_status_queued": "順番待ち",
        "inv_status_running": "調査中",
        "inv_status_completed": "完了",
        "inv_status_error": "エラー",
        "inv_ds_consistent": "期待どおり",
        "inv_ds_inconsistent": "不整合あり",
        "inv_ds_error": "確認できず",
        "inv_progress": "データセットごとの進み具合",
        "inv_col_dataset": "データセット",
        "inv_col_agent": "エージェント",
        "inv_col_iteration": "検証回数",
        "inv_col_done": "完了",
        "inv_working": "調査しています…",
        "inv_node_initialize": "ケースを読み込み索引を作っています",
        "inv_node_data_checker": "データを確認しています",
        "inv_node_consistency_checker": "期待値と照合しています",
        "inv_node_hypothesis_generator": "仮説を立てています",
        "inv_node_verifier": "仮説を実行で検証しています",
        "inv_node_reporter": "レポートを書いています",
        "inv_node_summarizer": "まとめています",
        "inv_summary": "まとめ",
        "inv_dataset_line": "状態: **{status}** · 期待と異なるフレーム: {frames} 件",
        "inv_hypotheses": "仮説",
        "inv_fix": "修正案（実行で検証済み）",
        "inv_charts": "グラフ",
        "inv_report": "レポート本文",
        "inv_download_md": "Markdown (.md)",
        "inv_download_html": "HTML レポート",
        "inv_missing_file": "ファイル {path} が見つかりません。",
    }
)

EN.update(
    {
        "page_investigations": "Algorithm investigation",
        "inv_title": "Bunseki algorithm investigation",
        "inv_caption": (
            "Finds why a time-series algorithm's output misses what was expected: it checks the data, finds the "
            "inconsistencies, forms hypotheses and verifies them by execution, and reports per dataset."
        ),
        "inv_welcome": (
            "Pack the case (manifest case.yaml, specifications, code, CSVs) as a zip or tar(.gz) archive, upload it "
            "and press “Start the investigation”."
        ),
        "inv_upload": "The case archive (zip, tar, tar.gz)",
        "inv_start": "Start the investigation",
        "inv_no_file": "Choose the case archive first.",
        "inv_runs": "Investigations",
        "inv_new": "New investigation",
        "inv_no_runs": "No investigations yet.",
        "inv_pick": "Choose an investigation",
        "inv_open": "Open",
        "inv_run_line": "Status: **{status}** · case: **{case}** · investigation id: `{run_id}`",
        "inv_error": "It ended with an error: {error}",
        "inv_status_queued": "queued",
        "inv_status_running": "running",
        "inv_status_completed": "completed",
        "inv_status_error": "error",
        "inv_ds_consistent": "consistent",
        "inv_ds_inconsistent": "inconsistent",
        "inv_ds_error": "could not be checked",
        "inv_progress": "Progress per dataset",
        "inv_col_dataset": "Dataset",
        "inv_col_agent": "Agent",
        "inv_col_iteration": "Verification iteration",
        "inv_col_done": "Done",
        "inv_working": "Investigating…",
        "inv_node_initialize": "Reading the case and indexing it",
        "inv_node_data_checker": "Checking the data",
        "inv_node_consistency_checker": "Checking against the expectation",
        "inv_node_hypothesis_generator": "Forming hypotheses",
        "inv_node_verifier": "Verifying hypotheses by execution",
        "inv_node_reporter": "Writing the report",
        "inv_node_summarizer": "Summarizing",
        "inv_summary": "Summary",
        "inv_dataset_line": "Status: **{status}** · frames that differ from the expectation: {frames}",
        "inv_hypotheses": "Hypotheses",
        "inv_fix": "Suggested fix (verified by execution)",
        "inv_charts": "Charts",
        "inv_report": "The report",
        "inv_download_md": "Markdown (.md)",
        "inv_download_html": "HTML report",
        "inv_missing_file": "File {path} was not found.",
    }
)


# --- what a turn cost (the caption under each answer): its own block, so that other pages' texts merge ---

JA.update(
    {
        "usage_line": "{prompt} + {completion} トークン · {calls} 回の呼び出し · {seconds} 秒",
        "usage_offline": "オフライン（モデルは使っていません）",
    }
)

EN.update(
    {
        "usage_line": "{prompt} + {completion} tokens · {calls} calls · {seconds} s",
        "usage_offline": "offline (no model ran)",
    }
)
