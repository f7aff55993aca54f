"""A third set of questions over the two databases of ``databases.py`` (nycflights13.db and
lahman.db), 12 per database, each with the SQL that computes its answer; every one is held out.

Written on 2026-11-26 by a helper session that writes benchmark questions and does not run or
read the system being measured: it did not see prism-edge's source, its answers, or any results
file, and read the first two sets only so as not to repeat them. The questions were phrased as
ordinary users who know the data only roughly would ask them (airline, airport, team and player
names as people say them), and their gold SQL was written after inspecting the schemas and data
with sqlite3 and run to check that each gives a single value with no ties. All 24 are held out:
they were written before the method was run on them and are only ever measured, never used to
choose rules. The kinds: 6 lookups of one value, 5 counts, 4 superlatives returning a label, 4
aggregates with a condition, 2 differences, 1 ordered question (earliest), and 2 questions
about something the databases do not hold (gold: 'not in the table'); 12 need a join. Like the
other sets, every cell is text, so numbers are compared and ordered through CAST.
"""

from __future__ import annotations

from databases import Question

THIRD = [
    # nycflights13: airlines, airports, planes, weather (all of 2013), January 2013's flights.
    Question("nycflights13", "What year was the plane N102UW built?",
             "SELECT year FROM planes WHERE tailnum = 'N102UW'", held_out=True),
    Question("nycflights13", "Which airline flew flight number 1714?",
             "SELECT DISTINCT airlines.name FROM flights JOIN airlines USING (carrier) "
             "WHERE CAST(flight AS INTEGER) = 1714", held_out=True),
    Question("nycflights13", "What is the elevation of Denver International Airport?",
             "SELECT CAST(alt AS INTEGER) FROM airports WHERE name = 'Denver Intl'",
             held_out=True),
    Question("nycflights13", "How many Southwest flights left from Newark in January 2013?",
             "SELECT COUNT(*) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'Southwest Airlines Co.' AND origin = 'EWR'",
             held_out=True),
    Question("nycflights13", "How many different planes did JetBlue fly in January 2013?",
             "SELECT COUNT(DISTINCT tailnum) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'JetBlue Airways'", held_out=True),
    Question("nycflights13", "How many airports are higher than 5,000 feet?",
             "SELECT COUNT(*) FROM airports WHERE CAST(alt AS REAL) > 5000", held_out=True),
    Question("nycflights13", "Which airport did the most flights from LaGuardia go to?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.dest "
             "WHERE origin = 'LGA' GROUP BY flights.dest ORDER BY COUNT(*) DESC LIMIT 1",
             held_out=True),
    Question("nycflights13", "Which airline had the most flights leave more than an hour late?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "WHERE CAST(dep_delay AS REAL) > 60 GROUP BY airlines.name "
             "ORDER BY COUNT(*) DESC LIMIT 1", held_out=True),
    Question("nycflights13", "What was the average temperature at JFK in July 2013?",
             "SELECT AVG(CAST(temp AS REAL)) FROM weather "
             "WHERE origin = 'JFK' AND CAST(year AS INTEGER) = 2013 "
             "AND CAST(month AS INTEGER) = 7", held_out=True),
    Question("nycflights13", "What is the average number of seats on Boeing planes?",
             "SELECT AVG(CAST(seats AS REAL)) FROM planes WHERE manufacturer = 'BOEING'",
             held_out=True),
    Question("nycflights13", "How many more flights left from Newark than from JFK in January?",
             "SELECT (SELECT COUNT(*) FROM flights WHERE origin = 'EWR') "
             "- (SELECT COUNT(*) FROM flights WHERE origin = 'JFK')", held_out=True),
    Question("nycflights13", "What was the average ticket price on JetBlue flights?",
             "SELECT 'not in the table'", held_out=True),
    # lahman: the seasons 2016-2020 (Salaries hold 2016 only; MVP awards 2016-2017 only).
    Question("lahman", "Where did the Toronto Blue Jays play their home games in 2020?",
             "SELECT park FROM Teams WHERE name = 'Toronto Blue Jays' AND yearID = '2020'",
             held_out=True),
    Question("lahman", "Who won the National League MVP in 2017?",
             "SELECT nameFirst || ' ' || nameLast FROM AwardsPlayers JOIN People "
             "USING (playerID) WHERE awardID = 'Most Valuable Player' AND lgID = 'NL' "
             "AND AwardsPlayers.yearID = '2017'", held_out=True),
    Question("lahman", "Which team did Gerrit Cole pitch for in 2020?",
             "SELECT DISTINCT Teams.name FROM Pitching JOIN People USING (playerID) "
             "JOIN Teams ON Teams.teamID = Pitching.teamID AND Teams.yearID = Pitching.yearID "
             "WHERE nameFirst = 'Gerrit' AND nameLast = 'Cole' AND Pitching.yearID = '2020'",
             held_out=True),
    Question("lahman", "How many players born in Venezuela played in 2017?",
             "SELECT COUNT(DISTINCT playerID) FROM Batting JOIN People USING (playerID) "
             "WHERE Batting.yearID = '2017' AND birthCountry = 'Venezuela'", held_out=True),
    Question("lahman", "How many teams won at least 100 games in 2019?",
             "SELECT COUNT(*) FROM Teams WHERE yearID = '2019' AND CAST(W AS INTEGER) >= 100",
             held_out=True),
    Question("lahman", "Who stole the most bases in 2018?",
             "SELECT nameFirst || ' ' || nameLast FROM Batting JOIN People USING (playerID) "
             "WHERE Batting.yearID = '2018' GROUP BY playerID "
             "ORDER BY SUM(CAST(SB AS INTEGER)) DESC LIMIT 1", held_out=True),
    Question("lahman", "Which team hit the most home runs in 2019?",
             "SELECT name FROM Teams WHERE yearID = '2019' "
             "ORDER BY CAST(HR AS INTEGER) DESC LIMIT 1", held_out=True),
    Question("lahman", "What was the average salary of Los Angeles Dodgers players in 2016?",
             "SELECT AVG(CAST(Salaries.salary AS REAL)) FROM Salaries JOIN Teams "
             "ON Teams.teamID = Salaries.teamID AND Teams.yearID = Salaries.yearID "
             "WHERE Teams.name = 'Los Angeles Dodgers' AND Salaries.yearID = '2016'",
             held_out=True),
    Question("lahman", "How many batters did Jacob deGrom strike out in total from 2016 to 2020?",
             "SELECT SUM(CAST(SO AS INTEGER)) FROM Pitching JOIN People USING (playerID) "
             "WHERE nameFirst = 'Jacob' AND nameLast = 'deGrom' "
             "AND CAST(Pitching.yearID AS INTEGER) BETWEEN 2016 AND 2020", held_out=True),
    Question("lahman",
             "How many more games did the Los Angeles Dodgers win than the San Francisco "
             "Giants in 2019?",
             "SELECT (SELECT CAST(W AS INTEGER) FROM Teams "
             "WHERE name = 'Los Angeles Dodgers' AND yearID = '2019') "
             "- (SELECT CAST(W AS INTEGER) FROM Teams "
             "WHERE name = 'San Francisco Giants' AND yearID = '2019')", held_out=True),
    Question("lahman", "Of the players who played in 2020, who was born earliest?",
             "SELECT nameFirst || ' ' || nameLast FROM People WHERE playerID IN "
             "(SELECT playerID FROM Batting WHERE yearID = '2020' "
             "UNION SELECT playerID FROM Pitching WHERE yearID = '2020') "
             "ORDER BY CAST(birthYear AS INTEGER), CAST(birthMonth AS INTEGER), "
             "CAST(birthDay AS INTEGER) LIMIT 1", held_out=True),
    Question("lahman", "Who was the home plate umpire in Game 7 of the 2019 World Series?",
             "SELECT 'not in the table'", held_out=True),
]  # fmt: skip
