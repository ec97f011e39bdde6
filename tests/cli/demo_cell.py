# 月別・地域別の売上推移 — `bunseki run-code` のテストがサンドボックスで実行するセル（df = sales_cp932.csv）
monthly = (
    df.assign(月=df["日付"].dt.to_period("M").dt.to_timestamp())
    .groupby(["月", "地域"])["売上金額"]
    .sum()
    .unstack("地域")
)
totals = monthly.sum().sort_values(ascending=False)
print("地域別の年間売上（円）")
print(totals.rename_axis(None).map("{:,.0f}".format).to_string())
print(f"\n売上が最も多い月: {monthly.sum(axis=1).idxmax():%Y年%m月}")

ax = (monthly[totals.index] / 1e6).plot(figsize=(9, 5), marker="o")
ax.set_title("2024年 月別・地域別の売上推移")
ax.set_xlabel("月")
ax.set_ylabel("売上金額（百万円）")
ax.legend(title="地域", ncol=2)
plt.tight_layout()
plt.savefig("月別売上推移.png", dpi=120)
