"""16 held-out questions over nycflights13.db and lahman.db (10 and 6), each with the SQL
that computes its answer, only ever measured (held_out=True); their 32 siblings to choose
rules on are in database_questions_fbdev.py.

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

This file's 16: 5 lookups of one value; 2 counts with a condition; 2 superlatives returning a
label; 2 aggregates with a condition; 3 ordering (the first or third by some order); 1
question whose main step joins two tables; 1 question about something the databases do not
hold (gold: 'not in the table').
"""

from __future__ import annotations

from databases import Question

FBHELD = [
    # aggregate
    Question("nycflights13", "What's the average seat count of a Boeing plane?",
             "SELECT AVG(CAST(seats AS REAL)) FROM planes WHERE manufacturer = 'BOEING'",
             held_out=True),
    # lookup
    Question("nycflights13", "What year was the plane N855UA built?",
             "SELECT CAST(year AS INTEGER) FROM planes WHERE tailnum = 'N855UA'",
             held_out=True),
    # superlative
    Question("nycflights13", "Where do most flights from LaGuardia go?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.dest "
             "WHERE flights.origin = 'LGA' GROUP BY airports.name ORDER BY COUNT(*) DESC LIMIT 1",
             held_out=True),
    # count
    Question("lahman", "How many Gold Gloves were given out in 2017?",
             "SELECT COUNT(*) FROM AwardsPlayers WHERE awardID = 'Gold Glove' AND yearID = '2017'",
             held_out=True),
    # count
    Question("nycflights13", "How many flights out of Newark got in more than an hour late?",
             "SELECT COUNT(*) FROM flights WHERE origin = 'EWR' AND CAST(arr_delay AS INTEGER) > "
             "60",
             held_out=True),
    # not held
    Question("lahman", "How much did the Yankees pay Gerrit Cole in 2020?",
             "SELECT 'not in the table'",
             held_out=True),
    # aggregate
    Question("nycflights13", "On average, how late did American Airlines flights arrive?",
             "SELECT AVG(CAST(arr_delay AS REAL)) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'American Airlines Inc.'",
             held_out=True),
    # join
    Question("lahman", "What team was the 2017 American League Cy Young winner pitching for?",
             "SELECT DISTINCT Teams.name FROM AwardsPlayers JOIN Pitching ON Pitching.playerID = "
             "AwardsPlayers.playerID AND Pitching.yearID = AwardsPlayers.yearID JOIN Teams ON "
             "Teams.teamID = Pitching.teamID AND Teams.yearID = Pitching.yearID WHERE "
             "AwardsPlayers.awardID = 'Cy Young Award' AND AwardsPlayers.yearID = '2017' AND "
             "AwardsPlayers.lgID = 'AL'",
             held_out=True),
    # ordering
    Question("nycflights13", "What was the third busiest destination airport for New York flights?",
             "SELECT airports.name FROM flights JOIN airports ON airports.faa = flights.dest "
             "GROUP BY airports.name ORDER BY COUNT(*) DESC LIMIT 1 OFFSET 2",
             held_out=True),
    # lookup
    Question("lahman", "What was Mike Trout paid in 2016?",
             "SELECT CAST(Salaries.salary AS INTEGER) FROM Salaries JOIN People USING (playerID) "
             "WHERE People.nameFirst = 'Mike' AND People.nameLast = 'Trout' AND Salaries.yearID = "
             "'2016'",
             held_out=True),
    # lookup
    Question("nycflights13", "What was the temperature at Newark at 8 am on January 10?",
             "SELECT CAST(temp AS REAL) FROM weather WHERE origin = 'EWR' AND month = '1' AND day "
             "= '10' AND hour = '8'",
             held_out=True),
    # superlative
    Question("nycflights13", "Which tail number shows up on the most flights?",
             "SELECT tailnum FROM flights WHERE tailnum IS NOT NULL GROUP BY tailnum ORDER BY "
             "COUNT(*) DESC LIMIT 1",
             held_out=True),
    # ordering
    Question("nycflights13", "Which airline had the first departure out of JFK on New Year's Day?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) WHERE "
             "flights.origin = 'JFK' AND flights.day = '1' AND flights.dep_time IS NOT NULL ORDER "
             "BY CAST(flights.dep_time AS INTEGER) LIMIT 1",
             held_out=True),
    # ordering
    Question("lahman", "Who hit the third-most home runs in 2017?",
             "SELECT People.nameFirst || ' ' || People.nameLast FROM Batting JOIN People USING "
             "(playerID) WHERE Batting.yearID = '2017' GROUP BY playerID ORDER BY "
             "SUM(CAST(Batting.HR AS INTEGER)) DESC LIMIT 1 OFFSET 2",
             held_out=True),
    # lookup
    Question("lahman", "What ballpark did the Texas Rangers play in in 2020?",
             "SELECT park FROM Teams WHERE name = 'Texas Rangers' AND yearID = '2020'",
             held_out=True),
    # lookup
    Question("nycflights13", "How high up is Denver's airport?",
             "SELECT CAST(alt AS INTEGER) FROM airports WHERE name = 'Denver Intl'",
             held_out=True),
]  # fmt: skip
