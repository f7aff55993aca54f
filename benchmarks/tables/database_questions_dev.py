"""Development questions over the two databases of ``databases.py`` (nycflights13.db and
lahman.db), 36 of 60 written at once with the held-out fifth set
(``database_questions_fifth.py``), each with the SQL that computes its answer; rules may be
chosen on these.

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

This set: nycflights13 17 (3 lookups, 3 counts, 3 superlatives, 1 aggregate, 3 differences, 2
orderings, 2 listings; 15 need a join); lahman 19 (4 lookups, 4 counts, 3 superlatives, 5
aggregates, 2 orderings, 1 listing; 13 need a join); 28 of 36 in all need a join.
"""

from __future__ import annotations

from databases import Question

DEV = [
    # nycflights13: airlines, airports, planes, weather (all of 2013), January 2013's flights.
    # superlative, join
    Question("nycflights13", "Which airline flew the oldest plane?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "JOIN planes USING (tailnum) WHERE planes.year IS NOT NULL "
             "ORDER BY CAST(planes.year AS INTEGER) LIMIT 1"),
    # difference, join
    Question("nycflights13", "Did more flights go to Boston or to Washington Dulles?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.dest "
             "WHERE airports.name IN ('General Edward Lawrence Logan Intl', "
             "'Washington Dulles Intl') GROUP BY airports.name ORDER BY COUNT(*) DESC LIMIT 1"),
    # count, join
    Question("nycflights13", "How many different airlines flew out of LaGuardia?",
             "SELECT COUNT(DISTINCT carrier) FROM flights JOIN airports "
             "ON airports.faa = flights.origin WHERE airports.name = 'La Guardia'"),
    # lookup
    Question("nycflights13", "What time zone is the airport in Honolulu in?",
             "SELECT tzone FROM airports WHERE name = 'Honolulu Intl'"),
    # superlative, join
    Question("nycflights13", "Which airline had the worst average arrival delay?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "GROUP BY airlines.name ORDER BY AVG(CAST(arr_delay AS REAL)) DESC LIMIT 1"),
    # listing, join
    Question("nycflights13", "Which airlines flew from New York to Seattle?",
             "SELECT DISTINCT airlines.name FROM flights JOIN airlines USING (carrier) "
             "JOIN airports ON airports.faa = flights.dest "
             "WHERE airports.name = 'Seattle Tacoma Intl'"),
    # ordering, join
    Question("nycflights13", "What is the third farthest destination from Newark?",
             "SELECT name FROM (SELECT DISTINCT airports.name, CAST(distance AS REAL) AS miles "
             "FROM flights JOIN airports ON airports.faa = flights.dest WHERE origin = 'EWR') "
             "ORDER BY miles DESC LIMIT 1 OFFSET 2"),
    # ordering, join
    Question("nycflights13", "Where did the first flight out of Newark on 1/1/2013 go?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.dest "
             "WHERE origin = 'EWR' AND CAST(month AS INTEGER) = 1 AND CAST(day AS INTEGER) = 1 "
             "AND dep_time IS NOT NULL ORDER BY CAST(dep_time AS INTEGER) LIMIT 1"),
    # difference, join
    Question("nycflights13", "Which had more departures from JFK in January, JetBlue or Delta?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "WHERE origin = 'JFK' "
             "AND airlines.name IN ('JetBlue Airways', 'Delta Air Lines Inc.') "
             "GROUP BY airlines.name ORDER BY COUNT(*) DESC LIMIT 1"),
    # aggregate, join
    Question("nycflights13", "On average, how late did flights to Denver arrive?",
             "SELECT AVG(CAST(arr_delay AS REAL)) FROM flights JOIN airports "
             "ON airports.faa = flights.dest WHERE airports.name = 'Denver Intl'"),
    # lookup
    Question("nycflights13", "What was the temperature at LaGuardia at 3 pm on Jan 20th, 2013?",
             "SELECT CAST(temp AS REAL) FROM weather WHERE origin = 'LGA' "
             "AND CAST(year AS INTEGER) = 2013 AND CAST(month AS INTEGER) = 1 "
             "AND CAST(day AS INTEGER) = 20 AND CAST(hour AS INTEGER) = 15"),
    # count, join
    Question("nycflights13", "How many flights went to Atlanta on New Year's Day?",
             "SELECT COUNT(*) FROM flights JOIN airports ON airports.faa = flights.dest "
             "WHERE airports.name = 'Hartsfield Jackson Atlanta Intl' "
             "AND CAST(month AS INTEGER) = 1 AND CAST(day AS INTEGER) = 1"),
    # superlative, join
    Question("nycflights13", "Which airline used the most different planes in January?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "GROUP BY airlines.name ORDER BY COUNT(DISTINCT tailnum) DESC LIMIT 1"),
    # count, join
    Question("nycflights13", "How many Virgin America flights took off from Kennedy?",
             "SELECT COUNT(*) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'Virgin America' AND origin = 'JFK'"),
    # difference, join
    Question("nycflights13", "How many more flights did United fly than American in January 2013?",
             "SELECT (SELECT COUNT(*) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'United Air Lines Inc.') - (SELECT COUNT(*) FROM flights "
             "JOIN airlines USING (carrier) WHERE airlines.name = 'American Airlines Inc.')"),
    # listing, join
    Question("nycflights13", "Which New York airports had flights to Denver?",
             "SELECT DISTINCT origins.name FROM flights JOIN airports AS origins "
             "ON origins.faa = flights.origin JOIN airports AS dests ON dests.faa = flights.dest "
             "WHERE dests.name = 'Denver Intl'"),
    # lookup, join
    Question("nycflights13", "Which airline flies the plane N725MQ?",
             "SELECT DISTINCT airlines.name FROM flights JOIN airlines USING (carrier) "
             "WHERE tailnum = 'N725MQ'"),
    # lahman: the seasons 2016-2020 (Salaries hold 2016 only; awards 2016-2017 only).
    # count, join
    Question("lahman", "How many different teams did Rich Hill pitch for from 2016 to 2020?",
             "SELECT COUNT(DISTINCT teamID) FROM Pitching JOIN People USING (playerID) "
             "WHERE nameFirst = 'Rich' AND nameLast = 'Hill' "
             "AND CAST(Pitching.yearID AS INTEGER) BETWEEN 2016 AND 2020"),
    # count, join
    Question("lahman", "How many Cuban-born players played for the White Sox in 2019?",
             "SELECT COUNT(DISTINCT playerID) FROM Batting JOIN People USING (playerID) "
             "JOIN Teams ON Teams.teamID = Batting.teamID AND Teams.yearID = Batting.yearID "
             "WHERE birthCountry = 'Cuba' AND Teams.name = 'Chicago White Sox' "
             "AND Batting.yearID = '2019'"),
    # count
    Question("lahman",
             "How many players did the baseball writers vote into the Hall of Fame between 2016 "
             "and 2020?",
             "SELECT COUNT(*) FROM HallOfFame WHERE votedBy = 'BBWAA' AND inducted = 'Y' "
             "AND category = 'Player' AND CAST(yearID AS INTEGER) BETWEEN 2016 AND 2020"),
    # lookup
    Question("lahman", "When did Pete Alonso make his big-league debut?",
             "SELECT debut FROM People WHERE nameFirst = 'Pete' AND nameLast = 'Alonso'"),
    # aggregate, join
    Question("lahman", "What was the biggest salary the Oakland A's paid in 2016?",
             "SELECT MAX(CAST(Salaries.salary AS INTEGER)) FROM Salaries JOIN Teams "
             "ON Teams.teamID = Salaries.teamID AND Teams.yearID = Salaries.yearID "
             "WHERE Teams.name = 'Oakland Athletics' AND Salaries.yearID = '2016'"),
    # lookup, join
    Question("lahman", "Who managed the team that won the 2020 World Series?",
             "SELECT nameFirst || ' ' || nameLast FROM SeriesPost JOIN Managers "
             "ON Managers.teamID = SeriesPost.teamIDwinner "
             "AND Managers.yearID = SeriesPost.yearID JOIN People USING (playerID) "
             "WHERE SeriesPost.round = 'WS' AND SeriesPost.yearID = '2020'"),
    # superlative
    Question("lahman", "Which team gave up the fewest runs in 2018?",
             "SELECT name FROM Teams WHERE yearID = '2018' ORDER BY CAST(RA AS INTEGER) LIMIT 1"),
    # ordering, join
    Question("lahman", "Who was the youngest player in the majors in 2016?",
             "SELECT nameFirst || ' ' || nameLast FROM People WHERE playerID IN (SELECT playerID "
             "FROM Batting WHERE yearID = '2016' UNION SELECT playerID FROM Pitching "
             "WHERE yearID = '2016') "
             "ORDER BY CAST(birthYear AS INTEGER) DESC, CAST(birthMonth AS INTEGER) DESC, "
             "CAST(birthDay AS INTEGER) DESC LIMIT 1"),
    # superlative, join
    Question("lahman", "Who hit the most homers in 2017?",
             "SELECT nameFirst || ' ' || nameLast FROM Batting JOIN People USING (playerID) "
             "WHERE Batting.yearID = '2017' GROUP BY playerID "
             "ORDER BY SUM(CAST(HR AS INTEGER)) DESC LIMIT 1"),
    # aggregate, join
    Question("lahman", "How many games did Max Scherzer win altogether from 2016 through 2020?",
             "SELECT SUM(CAST(W AS INTEGER)) FROM Pitching JOIN People USING (playerID) "
             "WHERE nameFirst = 'Max' AND nameLast = 'Scherzer' "
             "AND CAST(Pitching.yearID AS INTEGER) BETWEEN 2016 AND 2020"),
    # ordering
    Question("lahman", "Which team had the third-most wins in 2018?",
             "SELECT name FROM Teams WHERE yearID = '2018' ORDER BY CAST(W AS INTEGER) DESC "
             "LIMIT 1 OFFSET 2"),
    # aggregate, join
    Question("lahman",
             "On average, how many regular-season games did the World Series champions win from "
             "2016 to 2020?",
             "SELECT AVG(CAST(Teams.W AS REAL)) FROM SeriesPost JOIN Teams "
             "ON Teams.teamID = SeriesPost.teamIDwinner AND Teams.yearID = SeriesPost.yearID "
             "WHERE SeriesPost.round = 'WS' AND CAST(SeriesPost.yearID AS INTEGER) BETWEEN 2016 "
             "AND 2020"),
    # aggregate
    Question("lahman", "What's the average weight of players born in the Dominican Republic?",
             "SELECT AVG(CAST(weight AS REAL)) FROM People WHERE birthCountry = 'D.R.'"),
    # superlative, join
    Question("lahman", "Who led the majors in saves in 2019?",
             "SELECT nameFirst || ' ' || nameLast FROM Pitching JOIN People USING (playerID) "
             "WHERE Pitching.yearID = '2019' GROUP BY playerID "
             "ORDER BY SUM(CAST(SV AS INTEGER)) DESC LIMIT 1"),
    # listing, join
    Question("lahman", "Which teams did the Nationals knock out in the 2019 playoffs?",
             "SELECT losers.name FROM SeriesPost JOIN Teams AS winners "
             "ON winners.teamID = SeriesPost.teamIDwinner AND winners.yearID = SeriesPost.yearID "
             "JOIN Teams AS losers ON losers.teamID = SeriesPost.teamIDloser "
             "AND losers.yearID = SeriesPost.yearID WHERE winners.name = 'Washington Nationals' "
             "AND SeriesPost.yearID = '2019'"),
    # count, join
    Question("lahman", "How many players did the Mets use in 2019?",
             "SELECT COUNT(DISTINCT playerID) FROM (SELECT playerID, teamID, yearID FROM Batting "
             "UNION SELECT playerID, teamID, yearID FROM Pitching) AS played "
             "JOIN Teams USING (teamID, yearID) WHERE Teams.name = 'New York Mets' "
             "AND played.yearID = '2019'"),
    # lookup
    Question("lahman", "How tall is Aaron Judge, in inches?",
             "SELECT CAST(height AS INTEGER) FROM People WHERE nameFirst = 'Aaron' "
             "AND nameLast = 'Judge'"),
    # aggregate, join
    Question("lahman", "What was Clayton Kershaw's lowest ERA in a season between 2016 and 2020?",
             "SELECT MIN(CAST(ERA AS REAL)) FROM Pitching JOIN People USING (playerID) "
             "WHERE nameFirst = 'Clayton' AND nameLast = 'Kershaw' "
             "AND CAST(Pitching.yearID AS INTEGER) BETWEEN 2016 AND 2020"),
    # lookup, join
    Question("lahman", "Who won the Cy Young in the American League in 2016?",
             "SELECT nameFirst || ' ' || nameLast FROM AwardsPlayers JOIN People USING (playerID) "
             "WHERE awardID = 'Cy Young Award' AND lgID = 'AL' AND AwardsPlayers.yearID = '2016'"),
]  # fmt: skip
