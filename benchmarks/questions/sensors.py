"""Sensor readings every 30 minutes (English columns): timestamp, sensor_id, temperature, humidity, pressure, status."""

from questions import compute as c
from questions import shapes as s
from questions.expect import Question as Q
from questions.expect import count, direction, name, names, number, percent, period

T = "timestamp"
QUESTIONS = [
    Q("How many readings are in the file?", "shape", count(len)),
    Q("how many rows and how many columns does this data have", "shape", count(lambda d: d.shape[1])),
    Q("センサーデータは全部で何行？", "shape", count(len)),
    Q("How many sensors are there?", "distinct", s.distinct("sensor_id")),
    Q("how many unique sensor ids?", "distinct", s.distinct("sensor_id")),
    Q("statusは何種類ある？", "distinct", s.distinct("status")),
    Q("How many readings had an error status?", "filter", count(lambda d: (d["status"] == "error").sum())),
    Q(
        "What is the average temperature of sensor S-03?",
        "filter",
        number(lambda d: d.loc[d["sensor_id"] == "S-03", "temperature"].mean()),
    ),
    Q("How many readings have humidity above 80?", "filter", count(lambda d: (d["humidity"] > 80).sum())),
    Q(
        "Which sensor had the highest average temperature on 2024-03-15?",
        "subset_ranking",
        name(
            lambda d: c.first(c.window(d, T, "2024-03-15", "2024-03-16"), "sensor_id", "temperature", "mean"),
            "sensor_id",
        ),
    ),
    Q(
        "Among readings with status ok, which sensor has the lowest mean humidity?",
        "subset_ranking",
        s.winner("sensor_id", "humidity", "mean", ascending=True, rows=s.where("status", "ok")),
    ),
    Q(
        "In the second week of March 2024 (March 8 to 14), which sensor reported the highest max temperature?",
        "subset_ranking",
        name(
            lambda d: c.first(c.window(d, T, "2024-03-08", "2024-03-15"), "sensor_id", "temperature", "max"),
            "sensor_id",
        ),
    ),
    Q(
        "Compute the mean temperature per sensor and tell me which sensor is the warmest",
        "two_part",
        s.winner("sensor_id", "temperature", "mean"),
    ),
    Q("Plot daily average humidity, and which day was the most humid?", "two_part", s.peak(T, "humidity", "D", "mean")),
    Q(
        "センサー別にエラー件数を集計して、一番エラーが多いセンサーは？",
        "two_part",
        s.winner("sensor_id", rows=s.where("status", "error")),
    ),
    Q("What percentage of readings are errors?", "share", s.row_share("status", "error")),
    Q("What share of all readings comes from sensor S-01?", "share", s.row_share("sensor_id", "S-01")),
    Q("湿度が80を超える読み取りは全体の何%？", "share", percent(lambda d: 100 * (d["humidity"] > 80).mean())),
    Q(
        "By what percent did the average temperature change from the first week (Mar 1-7) to the last week "
        "(Mar 36-42)?".replace("Mar 36-42", "Apr 5-11"),
        "growth",
        s.window_change(T, ("2024-03-01", "2024-03-08"), ("2024-04-05", "2024-04-12"), "temperature"),
    ),
    Q(
        "3月と4月で平均気温（temperature）は何％変わった？",
        "growth",
        s.window_change(T, ("2024-03-01", "2024-04-01"), ("2024-04-01", "2024-05-01"), "temperature"),
    ),
    Q(
        "percent change in mean humidity from March 2024 to April 2024?",
        "growth",
        s.window_change(T, ("2024-03-01", "2024-04-01"), ("2024-04-01", "2024-05-01"), "humidity"),
    ),
    Q(
        "Is temperature trending up or down over the period?",
        "trend",
        direction(lambda d: c.slope(d, T, "temperature", "D", "mean")),
    ),
    Q(
        "Show the daily trend of mean pressure; which day had the lowest?",
        "trend",
        period(lambda d: c.peak(d, T, "pressure", "D", "mean", low=True), "D", T),
    ),
    Q("日別の平均気温の推移で、一番暑かった日はいつですか", "trend", s.peak(T, "temperature", "D", "mean")),
    Q("How many temperature outliers are there (z-score above 3)?", "outliers", s.zscore_outliers("temperature")),
    Q("Count outliers in humidity using the 1.5 IQR rule", "outliers", s.iqr_outliers("humidity")),
    Q("temperatureの外れ値を検出して件数を教えて（|z|>3）", "outliers", s.zscore_outliers("temperature")),
    Q(
        "Compute the temperature in Fahrenheit as temperature times 1.8 plus 32 and give its mean",
        "derived",
        number(lambda d: (d["temperature"] * 1.8 + 32).mean()),
    ),
    Q(
        "What is the average of humidity divided by temperature?",
        "derived",
        number(lambda d: (d["humidity"] / d["temperature"]).mean()),
    ),
    Q(
        "Define the spread as humidity minus temperature; what is its median?",
        "derived",
        number(lambda d: (d["humidity"] - d["temperature"]).median()),
    ),
    Q(
        "What is the correlation between temperature and humidity?",
        "correlation",
        s.correlation("temperature", "humidity", 0.01),
    ),
    Q(
        "Spearman correlation of pressure and temperature?",
        "correlation",
        s.correlation("pressure", "temperature", 0.01, method="spearman"),
    ),
    Q(
        "temperatureとhumidityの相関係数を計算してください",
        "correlation",
        s.correlation("temperature", "humidity", 0.01),
    ),
    Q("Top 2 sensors by average temperature", "top_n", s.leaders("sensor_id", "temperature", "mean", n=2)),
    Q(
        "list the 3 sensors with the most error readings",
        "top_n",
        names(lambda d: c.top(d[d["status"] == "error"], "sensor_id", n=3), "sensor_id"),
    ),
    Q(
        "Which 2 sensors have the lowest mean humidity?",
        "top_n",
        s.leaders("sensor_id", "humidity", "mean", n=2, ascending=True),
    ),
]
