"""A fourth set of questions over the two databases of ``databases.py`` (nycflights13.db and
lahman.db), 12 per database, each with the SQL that computes its answer; every one is held out.

Written on 2026-11-27 by a helper session that writes benchmark questions and does not run or
read the system being measured: it did not see prism-edge's source, its answers, or any results
file, and read the first three sets only so as not to repeat them. The questions were phrased as
ordinary users who know the data only roughly would ask them (airlines, airports and teams by
their everyday names, such as "Hawaiian", "O'Hare", "the Cubs", and players by full name), and
their gold SQL was written after inspecting the schemas and data with sqlite3 and run to check
that each gives a single value with no ties. All 24 are held out: they were written before the
method was run on them and are only ever measured, never used to choose rules. The kinds: 6
lookups of one value, 6 counts, 4 superlatives returning a label, 4 aggregates with a
condition, 2 differences, and 2 questions about something the databases do not hold (gold:
'not in the table'); 17 need a join. Like the other sets, every cell is text, so numbers are
compared and ordered through CAST.
"""

from __future__ import annotations

from databases import Question

FOURTH = [
    # nycflights13: airlines, airports, planes, weather (all of 2013), January 2013's flights.
    Question("nycflights13", "What time zone is Honolulu's airport in?",
             "SELECT tzone FROM airports WHERE name = 'Honolulu Intl'", held_out=True),
    Question("nycflights13", "Where did Hawaiian Airlines fly to from New York in January 2013?",
             "SELECT DISTINCT airports.name FROM flights JOIN airlines USING (carrier) "
             "JOIN airports ON airports.faa = flights.dest "
             "WHERE airlines.name = 'Hawaiian Airlines Inc.'", held_out=True),
    Question("nycflights13", "What model of plane flew American flight 1141 on January 1, 2013?",
             "SELECT planes.model FROM flights JOIN airlines USING (carrier) "
             "JOIN planes USING (tailnum) WHERE airlines.name = 'American Airlines Inc.' "
             "AND CAST(flight AS INTEGER) = 1141 AND CAST(month AS INTEGER) = 1 "
             "AND CAST(day AS INTEGER) = 1", held_out=True),
    Question("nycflights13", "How many Alaska Airlines flights left New York in January 2013?",
             "SELECT COUNT(*) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'Alaska Airlines Inc.'", held_out=True),
    Question("nycflights13", "How many different airlines flew to O'Hare in January 2013?",
             "SELECT COUNT(DISTINCT carrier) FROM flights "
             "JOIN airports ON airports.faa = flights.dest "
             "WHERE airports.name = 'Chicago Ohare Intl'", held_out=True),
    Question("nycflights13", "How many flights in January 2013 were flown on Airbus planes?",
             "SELECT COUNT(*) FROM flights JOIN planes USING (tailnum) "
             "WHERE planes.manufacturer IN ('AIRBUS', 'AIRBUS INDUSTRIE')", held_out=True),
    Question("nycflights13",
             "Which airline had the longest average departure delay out of JFK in January 2013?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "WHERE origin = 'JFK' GROUP BY airlines.name "
             "ORDER BY AVG(CAST(dep_delay AS REAL)) DESC LIMIT 1", held_out=True),
    Question("nycflights13",
             "Which of the New York airports had the most departures in January 2013?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.origin "
             "GROUP BY flights.origin ORDER BY COUNT(*) DESC LIMIT 1", held_out=True),
    Question("nycflights13",
             "What was the average distance of United flights from Newark in January 2013?",
             "SELECT AVG(CAST(distance AS REAL)) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'United Air Lines Inc.' AND origin = 'EWR'", held_out=True),
    Question("nycflights13", "How many inches of rain fell at JFK in total in 2013?",
             "SELECT SUM(CAST(precip AS REAL)) FROM weather "
             "WHERE origin = 'JFK' AND CAST(year AS INTEGER) = 2013", held_out=True),
    Question("nycflights13",
             "How many more flights went to Atlanta than to O'Hare in January 2013?",
             "SELECT (SELECT COUNT(*) FROM flights WHERE dest = 'ATL') "
             "- (SELECT COUNT(*) FROM flights WHERE dest = 'ORD')", held_out=True),
    Question("nycflights13", "How many passengers flew Delta out of New York in January 2013?",
             "SELECT 'not in the table'", held_out=True),
    # lahman: the seasons 2016-2020 (Salaries hold 2016 only; awards 2016-2017 only).
    Question("lahman", "How tall is Aaron Judge, in inches?",
             "SELECT CAST(height AS INTEGER) FROM People "
             "WHERE nameFirst = 'Aaron' AND nameLast = 'Judge'", held_out=True),
    Question("lahman", "Who did the Cubs beat in the 2016 World Series?",
             "SELECT loser.name FROM SeriesPost "
             "JOIN Teams AS winner ON winner.teamID = SeriesPost.teamIDwinner "
             "AND winner.yearID = SeriesPost.yearID "
             "JOIN Teams AS loser ON loser.teamID = SeriesPost.teamIDloser "
             "AND loser.yearID = SeriesPost.yearID "
             "WHERE SeriesPost.round = 'WS' AND SeriesPost.yearID = '2016' "
             "AND winner.name = 'Chicago Cubs'", held_out=True),
    Question("lahman", "Who was the World Series MVP in 2017?",
             "SELECT nameFirst || ' ' || nameLast FROM AwardsPlayers JOIN People "
             "USING (playerID) WHERE awardID = 'World Series MVP' "
             "AND AwardsPlayers.yearID = '2017'", held_out=True),
    Question("lahman",
             "How many of the 2017 Gold Glove winners were born outside the United States?",
             "SELECT COUNT(DISTINCT playerID) FROM AwardsPlayers JOIN People USING (playerID) "
             "WHERE awardID = 'Gold Glove' AND AwardsPlayers.yearID = '2017' "
             "AND birthCountry <> 'USA'", held_out=True),
    Question("lahman", "How many left-handed pitchers pitched in 2020?",
             "SELECT COUNT(DISTINCT playerID) FROM Pitching JOIN People USING (playerID) "
             "WHERE Pitching.yearID = '2020' AND throws = 'L'", held_out=True),
    Question("lahman", "How many different pitchers did the Mets use in 2019?",
             "SELECT COUNT(DISTINCT playerID) FROM Pitching JOIN Teams "
             "ON Teams.teamID = Pitching.teamID AND Teams.yearID = Pitching.yearID "
             "WHERE Teams.name = 'New York Mets' AND Pitching.yearID = '2019'", held_out=True),
    Question("lahman", "Who hit the most doubles for the Red Sox in 2019?",
             "SELECT nameFirst || ' ' || nameLast FROM Batting JOIN People USING (playerID) "
             "JOIN Teams ON Teams.teamID = Batting.teamID AND Teams.yearID = Batting.yearID "
             "WHERE Teams.name = 'Boston Red Sox' AND Batting.yearID = '2019' "
             "GROUP BY playerID ORDER BY SUM(CAST(Batting.\"2B\" AS INTEGER)) DESC LIMIT 1",
             held_out=True),
    Question("lahman", "Who led the majors in saves in 2019?",
             "SELECT nameFirst || ' ' || nameLast FROM Pitching JOIN People USING (playerID) "
             "WHERE Pitching.yearID = '2019' GROUP BY playerID "
             "ORDER BY SUM(CAST(SV AS INTEGER)) DESC LIMIT 1", held_out=True),
    Question("lahman", "How many strikeouts did Yankees pitchers record in total in 2019?",
             "SELECT SUM(CAST(Pitching.SO AS INTEGER)) FROM Pitching JOIN Teams "
             "ON Teams.teamID = Pitching.teamID AND Teams.yearID = Pitching.yearID "
             "WHERE Teams.name = 'New York Yankees' AND Pitching.yearID = '2019'",
             held_out=True),
    Question("lahman", "What is the average weight, in pounds, of the players born in Japan?",
             "SELECT AVG(CAST(weight AS REAL)) FROM People WHERE birthCountry = 'Japan'",
             held_out=True),
    Question("lahman", "How many more home runs did Pete Alonso hit than Aaron Judge in 2019?",
             "SELECT (SELECT SUM(CAST(HR AS INTEGER)) FROM Batting JOIN People "
             "USING (playerID) WHERE nameFirst = 'Pete' AND nameLast = 'Alonso' "
             "AND Batting.yearID = '2019') "
             "- (SELECT SUM(CAST(HR AS INTEGER)) FROM Batting JOIN People "
             "USING (playerID) WHERE nameFirst = 'Aaron' AND nameLast = 'Judge' "
             "AND Batting.yearID = '2019')", held_out=True),
    Question("lahman", "What uniform number did Gerrit Cole wear for the Yankees in 2020?",
             "SELECT 'not in the table'", held_out=True),
]  # fmt: skip
