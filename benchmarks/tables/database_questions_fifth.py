"""A fifth set of questions over the two databases of ``databases.py`` (nycflights13.db and
lahman.db), 24 of 60 written at once with the development set (``database_questions_dev.py``),
each with the SQL that computes its answer; every one is held out: only ever measured, never
used to choose rules.

Written on 2026-11-27 by a helper session that writes benchmark questions and does not run or
read the system being measured: it did not see prism-edge's source, its answers, any results
file, or the fourth set (database_questions_fourth.py), and read the first three sets only so as
not to repeat them. The questions were phrased as ordinary users who know the data only roughly
would ask them (airlines, airports, teams and parks by a city, a nickname or a short name as
well as the full one; players by full name; "late", "homers", "paid" for the columns' words;
dates as people write them), and their gold SQL was written after inspecting the schemas and
data with sqlite3 and run to check that each gives one value, or a short list for a listing,
with no tie at the top; where a user expects a name the SQL answers the name (joined to the
table holding it), not an id or a code. Like the other sets, every cell is text, so numbers are
compared and ordered through CAST.

The split, made before the method was run on any of them: the 60 were written as one list
(nycflights13's 30, then lahman's 30, each grouped by kind), shuffled with
``random.Random(20261127).shuffle`` and cut: the first 36 are ``database_questions_dev.py``
(DEV, held_out=False: rules may be chosen on them), the other 24 ``database_questions_fifth.py``
(FIFTH, held_out=True: only ever measured, reported apart). Nothing was moved by hand after the
shuffle (it gave 17 nycflights13 and 19 lahman questions to the dev set, 13 and 11 to the fifth;
all three listings fell in the dev set and all three questions about what the databases do not
hold in the fifth); within each file the questions are grouped by database, in their shuffled
order, each marked with its kind.

All 60: 11 lookups of one value, 11 counts, 10 superlatives returning a label, 10 aggregates
with a condition, 6 differences or "which of A or B", 6 ordering questions (first, last, the
nth), 3 listings and 3 questions about something the databases do not hold (gold: 'not in the
table'); 41 need a join.

This set: nycflights13 13 (2 lookups, 3 counts, 2 superlatives, 4 aggregates, 1 ordering, 1
question about what the databases do not hold; 7 need a join); lahman 11 (2 lookups, 1 count, 2
superlatives, 3 differences, 1 ordering, 2 questions about what the databases do not hold; 6
need a join); 13 of 24 in all need a join.
"""

from __future__ import annotations

from databases import Question

FIFTH = [
    # nycflights13: airlines, airports, planes, weather (all of 2013), January 2013's flights.
    # lookup
    Question("nycflights13", "What model is the plane with tail number N905DL?",
             "SELECT model FROM planes WHERE tailnum = 'N905DL'", held_out=True),
    # superlative, join
    Question("nycflights13", "Which airline had the single most delayed departure in January?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "ORDER BY CAST(dep_delay AS REAL) DESC LIMIT 1", held_out=True),
    # not in the databases
    Question("nycflights13", "How many passengers flew Delta out of New York in January 2013?",
             "SELECT 'not in the table'", held_out=True),
    # count
    Question("nycflights13", "How many flights got cancelled in January 2013?",
             "SELECT COUNT(*) FROM flights WHERE dep_time IS NULL", held_out=True),
    # aggregate
    Question("nycflights13", "What was the coldest it got at Newark in 2013?",
             "SELECT MIN(CAST(temp AS REAL)) FROM weather WHERE origin = 'EWR' "
             "AND CAST(year AS INTEGER) = 2013", held_out=True),
    # superlative, join
    Question("nycflights13", "Where did JetBlue fly most often?",
             "SELECT airports.name FROM flights JOIN airlines USING (carrier) JOIN airports "
             "ON airports.faa = flights.dest WHERE airlines.name = 'JetBlue Airways' "
             "GROUP BY airports.name ORDER BY COUNT(*) DESC LIMIT 1", held_out=True),
    # ordering, join
    Question("nycflights13",
             "Which airline had the last scheduled departure from JFK on January 31, 2013?",
             "SELECT DISTINCT airlines.name FROM flights JOIN airlines USING (carrier) "
             "WHERE origin = 'JFK' AND CAST(month AS INTEGER) = 1 AND CAST(day AS INTEGER) = 31 "
             "AND CAST(sched_dep_time AS INTEGER) = (SELECT MAX(CAST(sched_dep_time AS INTEGER)) "
             "FROM flights WHERE origin = 'JFK' AND CAST(month AS INTEGER) = 1 "
             "AND CAST(day AS INTEGER) = 31)", held_out=True),
    # aggregate, join
    Question("nycflights13", "What's the longest time in the air for a flight out of LaGuardia?",
             "SELECT MAX(CAST(air_time AS REAL)) FROM flights JOIN airports "
             "ON airports.faa = flights.origin WHERE airports.name = 'La Guardia'", held_out=True),
    # count, join
    Question("nycflights13", "How many different planes built before 2000 did United fly?",
             "SELECT COUNT(DISTINCT tailnum) FROM flights JOIN airlines USING (carrier) "
             "JOIN planes USING (tailnum) WHERE airlines.name = 'United Air Lines Inc.' "
             "AND CAST(planes.year AS INTEGER) < 2000", held_out=True),
    # count
    Question("nycflights13", "On how many days in January 2013 did it rain or snow at JFK?",
             "SELECT COUNT(DISTINCT day) FROM weather WHERE origin = 'JFK' "
             "AND CAST(month AS INTEGER) = 1 AND CAST(precip AS REAL) > 0", held_out=True),
    # aggregate
    Question("nycflights13", "What was the strongest wind gust recorded at JFK?",
             "SELECT MAX(CAST(wind_gust AS REAL)) FROM weather WHERE origin = 'JFK'",
             held_out=True),
    # aggregate, join
    Question("nycflights13", "What was the average arrival delay for flights into O'Hare?",
             "SELECT AVG(CAST(arr_delay AS REAL)) FROM flights JOIN airports "
             "ON airports.faa = flights.dest WHERE airports.name = 'Chicago Ohare Intl'",
             held_out=True),
    # lookup, join
    Question("nycflights13", "How far is it from JFK to San Francisco?",
             "SELECT DISTINCT CAST(distance AS INTEGER) FROM flights JOIN airports "
             "ON airports.faa = flights.dest WHERE origin = 'JFK' "
             "AND airports.name = 'San Francisco Intl'", held_out=True),
    # lahman: the seasons 2016-2020 (Salaries hold 2016 only; awards 2016-2017 only).
    # ordering, join
    Question("lahman", "Of everyone who played in 2020, whose major league debut came first?",
             "SELECT nameFirst || ' ' || nameLast FROM People WHERE debut IS NOT NULL "
             "AND playerID IN (SELECT playerID FROM Batting WHERE yearID = '2020' UNION "
             "SELECT playerID FROM Pitching WHERE yearID = '2020') ORDER BY debut LIMIT 1",
             held_out=True),
    # lookup, join
    Question("lahman", "What team was Shohei Ohtani on in 2018?",
             "SELECT DISTINCT Teams.name FROM Batting JOIN People USING (playerID) JOIN Teams "
             "ON Teams.teamID = Batting.teamID AND Teams.yearID = Batting.yearID "
             "WHERE nameFirst = 'Shohei' AND nameLast = 'Ohtani' AND Batting.yearID = '2018'",
             held_out=True),
    # not in the databases
    Question("lahman", "What number does Aaron Judge wear?",
             "SELECT 'not in the table'", held_out=True),
    # superlative, join
    Question("lahman", "Who was the highest-paid Red Sox player in 2016?",
             "SELECT nameFirst || ' ' || nameLast FROM Salaries JOIN People USING (playerID) "
             "JOIN Teams ON Teams.teamID = Salaries.teamID AND Teams.yearID = Salaries.yearID "
             "WHERE Teams.name = 'Boston Red Sox' AND Salaries.yearID = '2016' "
             "ORDER BY CAST(salary AS INTEGER) DESC LIMIT 1", held_out=True),
    # superlative
    Question("lahman", "Which team drew the fewest fans in 2019?",
             "SELECT name FROM Teams WHERE yearID = '2019' ORDER BY CAST(attendance AS INTEGER) "
             "LIMIT 1", held_out=True),
    # not in the databases
    Question("lahman", "What was the final score of the 2019 All-Star Game?",
             "SELECT 'not in the table'", held_out=True),
    # difference, join
    Question("lahman", "Who hit more home runs in 2019, Cody Bellinger or Christian Yelich?",
             "SELECT nameFirst || ' ' || nameLast FROM Batting JOIN People USING (playerID) "
             "WHERE Batting.yearID = '2019' AND ((nameFirst = 'Cody' AND nameLast = 'Bellinger') "
             "OR (nameFirst = 'Christian' AND nameLast = 'Yelich')) GROUP BY playerID "
             "ORDER BY SUM(CAST(HR AS INTEGER)) DESC LIMIT 1", held_out=True),
    # difference, join
    Question("lahman", "Who struck out more batters in 2019, Justin Verlander or Gerrit Cole?",
             "SELECT nameFirst || ' ' || nameLast FROM Pitching JOIN People USING (playerID) "
             "WHERE Pitching.yearID = '2019' AND ((nameFirst = 'Justin' "
             "AND nameLast = 'Verlander') OR (nameFirst = 'Gerrit' AND nameLast = 'Cole')) "
             "GROUP BY playerID ORDER BY SUM(CAST(SO AS INTEGER)) DESC LIMIT 1", held_out=True),
    # lookup
    Question("lahman", "What city is Camden Yards in?",
             "SELECT city FROM Parks WHERE \"park.name\" = 'Oriole Park at Camden Yards'",
             held_out=True),
    # difference
    Question("lahman", "How many more runs did the Yankees score than the Red Sox in 2019?",
             "SELECT (SELECT CAST(R AS INTEGER) FROM Teams WHERE name = 'New York Yankees' "
             "AND yearID = '2019') - (SELECT CAST(R AS INTEGER) FROM Teams "
             "WHERE name = 'Boston Red Sox' AND yearID = '2019')", held_out=True),
    # count, join
    Question("lahman", "How many lefties pitched in 2018?",
             "SELECT COUNT(DISTINCT playerID) FROM Pitching JOIN People USING (playerID) "
             "WHERE throws = 'L' AND Pitching.yearID = '2018'", held_out=True),
]  # fmt: skip
