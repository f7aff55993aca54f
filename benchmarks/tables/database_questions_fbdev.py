"""32 questions over nycflights13.db and lahman.db (14 and 18), each with the SQL that
computes its answer, to choose rules on (held_out=False); their 16 held-out siblings are in
database_questions_fbheld.py.

Written on 2026-11-27 by a helper session that writes benchmark questions and neither reads nor
runs the system being measured: it did not open prism-edge's source, its tests, any results
file, or the held-out question sets (database_questions_third, fourth, fifth, dev, fresh,
geonames, geoheld); it read database_questions_geodev.py only for its format, and of
databases.py its module docstring, the Question class and main()'s arguments (a grep for the
class also showed it the first dozen entries of the QUESTIONS list, whose questions it then
kept clear of; a question here may still match one in an unread set by chance). The questions
are phrased as ordinary users who know the subject only roughly would ask them (airlines,
airports and cities by their everyday names, players by full name, teams by name, no column
names or codes beyond tail and flight numbers), and their gold SQL was written after
inspecting the two databases' schemas and values with sqlite3, then run to check that each
gives one value with no tie at the top (or the short list a listing asks for), names rather
than codes where a user expects a name.

The split: all 48 were written as one list of (kind, database, question, gold) in the
proportions asked for (8 lookups, 8 counts, 8 superlatives, 7 aggregates, 5 differences, 4
ordering, 4 joins, 2 listings, 2 not held; 24 on each database), then, before anything else
was done with them, shuffled and cut:

    random.Random(20261129).shuffle(questions)
    FBDEV, FBHELD = questions[:32], questions[32:]

The first 32 are FBDEV in database_questions_fbdev.py (held_out=False: rules may be chosen on
them), the other 16 FBHELD in database_questions_fbheld.py (held_out=True: only ever
measured). Nothing was moved by hand after the shuffle, so the kinds are not spread evenly
between the two. Every cell is text, so numbers are compared and ordered through CAST. Each
question's kind is in a comment above it.

This file's 32: 3 lookups of one value; 6 counts with a condition; 6 superlatives returning a
label; 5 aggregates with a condition; 5 differences or comparisons of two; 1 ordering; 3
questions whose main step joins two tables; 2 short listings; 1 question about something the
databases do not hold (gold: 'not in the table').
"""

from __future__ import annotations

from databases import Question

FBDEV = [
    # lookup
    Question("lahman", "What town was Shohei Ohtani born in?",
             "SELECT birthCity FROM People WHERE nameFirst = 'Shohei' AND nameLast = 'Ohtani'",
             held_out=False),
    # difference
    Question("nycflights13", "Who flew more flights to Boston, JetBlue or Delta?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) WHERE flights.dest "
             "= 'BOS' AND airlines.name IN ('JetBlue Airways', 'Delta Air Lines Inc.') GROUP BY "
             "airlines.name ORDER BY COUNT(*) DESC LIMIT 1",
             held_out=False),
    # superlative
    Question("nycflights13", "Which airline had the worst average departure delay out of Newark?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) WHERE "
             "flights.origin = 'EWR' GROUP BY airlines.name ORDER BY AVG(CAST(dep_delay AS REAL)) "
             "DESC LIMIT 1",
             held_out=False),
    # count
    Question("lahman", "How many players hit 40 or more homers in 2019?",
             "SELECT COUNT(*) FROM (SELECT playerID FROM Batting WHERE yearID = '2019' GROUP BY "
             "playerID HAVING SUM(CAST(HR AS INTEGER)) >= 40)",
             held_out=False),
    # count
    Question("nycflights13", "How many flights did JetBlue have out of JFK?",
             "SELECT COUNT(*) FROM flights JOIN airlines USING (carrier) WHERE airlines.name = "
             "'JetBlue Airways' AND flights.origin = 'JFK'",
             held_out=False),
    # aggregate
    Question("lahman", "What was the Yankees' total payroll in 2016?",
             "SELECT SUM(CAST(Salaries.salary AS INTEGER)) FROM Salaries JOIN Teams ON "
             "Teams.teamID = Salaries.teamID AND Teams.yearID = Salaries.yearID WHERE Teams.name "
             "= 'New York Yankees' AND Salaries.yearID = '2016'",
             held_out=False),
    # superlative
    Question("lahman", "Which pitcher had the most strikeouts in 2019?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM Pitching JOIN People USING "
             "(playerID) WHERE Pitching.yearID = '2019' GROUP BY playerID ORDER BY "
             "SUM(CAST(Pitching.SO AS INTEGER)) DESC LIMIT 1",
             held_out=False),
    # difference
    Question("lahman", "How many more games did the Astros win than the Yankees in 2019?",
             "SELECT (SELECT CAST(W AS INTEGER) FROM Teams WHERE name = 'Houston Astros' AND "
             "yearID = '2019') - (SELECT CAST(W AS INTEGER) FROM Teams WHERE name = 'New York "
             "Yankees' AND yearID = '2019')",
             held_out=False),
    # aggregate
    Question("lahman", "What was the average attendance of a National League team in 2017?",
             "SELECT AVG(CAST(attendance AS REAL)) FROM Teams WHERE lgID = 'NL' AND yearID = "
             "'2017'",
             held_out=False),
    # superlative
    Question("lahman", "Who was the highest-paid player in 2016?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM Salaries JOIN People USING "
             "(playerID) WHERE Salaries.yearID = '2016' ORDER BY CAST(Salaries.salary AS INTEGER) "
             "DESC LIMIT 1",
             held_out=False),
    # listing
    Question("lahman", "Who got into the Hall of Fame in 2018?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM HallOfFame JOIN People USING "
             "(playerID) WHERE HallOfFame.yearID = '2018' AND HallOfFame.inducted = 'Y' ORDER BY "
             "People.nameLast",
             held_out=False),
    # count
    Question("lahman", "How many teams won at least 100 games in 2019?",
             "SELECT COUNT(*) FROM Teams WHERE yearID = '2019' AND CAST(W AS INTEGER) >= 100",
             held_out=False),
    # count
    Question("nycflights13", "How many planes have more than 300 seats?",
             "SELECT COUNT(*) FROM planes WHERE CAST(seats AS INTEGER) > 300",
             held_out=False),
    # superlative
    Question("nycflights13", "What's the farthest destination you can fly to from New York?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.dest "
             "ORDER BY CAST(flights.distance AS INTEGER) DESC LIMIT 1",
             held_out=False),
    # superlative
    Question("lahman", "Who stole the most bases in 2018?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM Batting JOIN People USING "
             "(playerID) WHERE Batting.yearID = '2018' GROUP BY playerID ORDER BY "
             "SUM(CAST(Batting.SB AS INTEGER)) DESC LIMIT 1",
             held_out=False),
    # join
    Question("nycflights13", "Which airline operates the plane with tail number N725MQ?",
             "SELECT DISTINCT airlines.name FROM flights JOIN airlines USING (carrier) WHERE "
             "flights.tailnum = 'N725MQ'",
             held_out=False),
    # not held
    Question("nycflights13", "How much did a JetBlue ticket to Fort Lauderdale cost?",
             "SELECT 'not in the table'",
             held_out=False),
    # aggregate
    Question("nycflights13", "What was the average temperature at JFK in January?",
             "SELECT AVG(CAST(temp AS REAL)) FROM weather WHERE origin = 'JFK' AND month = '1'",
             held_out=False),
    # count
    Question("nycflights13", "In how many hours of January was visibility at JFK under a mile?",
             "SELECT COUNT(*) FROM weather WHERE origin = 'JFK' AND month = '1' AND CAST(visib AS "
             "REAL) < 1",
             held_out=False),
    # aggregate
    Question("lahman",
             "How many home runs did the Minnesota Twins hit altogether from 2016 to 2020?",
             "SELECT SUM(CAST(HR AS INTEGER)) FROM Teams WHERE name = 'Minnesota Twins' AND "
             "CAST(yearID AS INTEGER) BETWEEN 2016 AND 2020",
             held_out=False),
    # listing
    Question("nycflights13", "Which airlines fly from New York to Seattle?",
             "SELECT DISTINCT airlines.name FROM flights JOIN airlines USING (carrier) WHERE "
             "flights.dest = 'SEA' ORDER BY airlines.name",
             held_out=False),
    # join
    Question("lahman", "Who managed the team that won the 2019 World Series?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM SeriesPost JOIN Managers ON "
             "Managers.teamID = SeriesPost.teamIDwinner AND Managers.yearID = SeriesPost.yearID "
             "JOIN People ON People.playerID = Managers.playerID WHERE SeriesPost.round = 'WS' "
             "AND SeriesPost.yearID = '2019'",
             held_out=False),
    # count
    Question("lahman", "How many people in the database were born in Venezuela?",
             "SELECT COUNT(*) FROM People WHERE birthCountry = 'Venezuela'",
             held_out=False),
    # lookup
    Question("nycflights13", "How far is it from LaGuardia to Atlanta?",
             "SELECT DISTINCT CAST(distance AS INTEGER) FROM flights WHERE origin = 'LGA' AND "
             "dest = 'ATL'",
             held_out=False),
    # difference
    Question("lahman", "Who hit more home runs in 2019, Pete Alonso or Cody Bellinger?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM Batting JOIN People USING "
             "(playerID) WHERE Batting.yearID = '2019' AND ((People.nameFirst = 'Pete' AND "
             "People.nameLast = 'Alonso') OR (People.nameFirst = 'Cody' AND People.nameLast = "
             "'Bellinger')) GROUP BY playerID ORDER BY SUM(CAST(Batting.HR AS INTEGER)) DESC "
             "LIMIT 1",
             held_out=False),
    # aggregate
    Question("nycflights13", "How many miles did Hawaiian Airlines fly in total?",
             "SELECT SUM(CAST(distance AS INTEGER)) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'Hawaiian Airlines Inc.'",
             held_out=False),
    # join
    Question("nycflights13",
             "How many seats did the plane on JetBlue flight 79 from JFK on January 1 have?",
             "SELECT CAST(planes.seats AS INTEGER) FROM flights JOIN planes USING (tailnum) WHERE "
             "flights.carrier = 'B6' AND CAST(flights.flight AS INTEGER) = 79 AND flights.origin "
             "= 'JFK' AND flights.day = '1'",
             held_out=False),
    # difference
    Question("lahman",
             "How many more batters did Max Scherzer strike out than Justin Verlander in 2018?",
             "SELECT (SELECT SUM(CAST(Pitching.SO AS INTEGER)) FROM Pitching JOIN People USING "
             "(playerID) WHERE People.nameFirst = 'Max' AND People.nameLast = 'Scherzer' AND "
             "Pitching.yearID = '2018') - (SELECT SUM(CAST(Pitching.SO AS INTEGER)) FROM Pitching "
             "JOIN People USING (playerID) WHERE People.nameFirst = 'Justin' AND People.nameLast "
             "= 'Verlander' AND Pitching.yearID = '2018')",
             held_out=False),
    # ordering
    Question("lahman", "Which team had the second-best record in 2018?",
             "SELECT name FROM Teams WHERE yearID = '2018' ORDER BY CAST(W AS REAL) / (CAST(W AS "
             "REAL) + CAST(L AS REAL)) DESC LIMIT 1 OFFSET 1",
             held_out=False),
    # superlative
    Question("lahman", "Which team drew the biggest crowds in 2018?",
             "SELECT name FROM Teams WHERE yearID = '2018' ORDER BY CAST(attendance AS INTEGER) "
             "DESC LIMIT 1",
             held_out=False),
    # difference
    Question("nycflights13", "How many more flights did Newark have than LaGuardia?",
             "SELECT (SELECT COUNT(*) FROM flights WHERE origin = 'EWR') - (SELECT COUNT(*) FROM "
             "flights WHERE origin = 'LGA')",
             held_out=False),
    # lookup
    Question("lahman", "How many home runs did Aaron Judge hit in 2017?",
             "SELECT SUM(CAST(Batting.HR AS INTEGER)) FROM Batting JOIN People USING (playerID) "
             "WHERE People.nameFirst = 'Aaron' AND People.nameLast = 'Judge' AND Batting.yearID = "
             "'2017'",
             held_out=False),
]  # fmt: skip
