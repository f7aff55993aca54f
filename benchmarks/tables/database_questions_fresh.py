"""A second, fresh set of questions over the two databases of ``databases.py``
(nycflights13.db and lahman.db), 12 per database, each with the SQL that computes its answer.

Written on 2026-11-26 by a helper session that writes benchmark questions and does not
run or read the system being measured: the questions were phrased as ordinary users would ask
them, and their gold SQL was written after inspecting the schemas and data with sqlite3 and run
to check that each gives a single value or a short list with no ties. They were written, and
every fourth one (the 4th, 8th, 12th, ...) set aside as held out, before the method was run on
them; the helper did not see prism-edge's source, its answers, or any results file. Like the
first set, every cell is text, so numbers are compared and ordered through CAST. Two questions
ask about something the databases do not hold (gold: 'not in the table').
"""

from __future__ import annotations

from databases import Question

FRESH = [
    # nycflights13: airlines, airports, planes, weather (all of 2013), January 2013's flights.
    Question("nycflights13", "What is the name of the airport with the FAA code SFO?",
             "SELECT name FROM airports WHERE faa = 'SFO'"),
    Question("nycflights13", "How many flights left more than an hour late?",
             "SELECT COUNT(*) FROM flights WHERE CAST(dep_delay AS REAL) > 60"),
    Question("nycflights13", "Which airline flew the most flights?",
             "SELECT airlines.name FROM flights JOIN airlines USING (carrier) "
             "GROUP BY airlines.name ORDER BY COUNT(*) DESC LIMIT 1"),
    Question("nycflights13", "What was the average arrival delay of American Airlines flights?",
             "SELECT AVG(CAST(arr_delay AS REAL)) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'American Airlines Inc.'", held_out=True),
    Question("nycflights13", "How many different destinations had flights from EWR?",
             "SELECT COUNT(DISTINCT dest) FROM flights WHERE origin = 'EWR'"),
    Question("nycflights13", "What is the name of the airport that the longest flight went to?",
             "SELECT name FROM airports WHERE faa = "
             "(SELECT dest FROM flights ORDER BY CAST(distance AS REAL) DESC LIMIT 1)"),
    Question("nycflights13", "Which plane model has the most seats?",
             "SELECT model FROM planes ORDER BY CAST(seats AS INTEGER) DESC LIMIT 1"),
    Question("nycflights13", "How many planes have more than two engines?",
             "SELECT COUNT(*) FROM planes WHERE CAST(engines AS INTEGER) > 2", held_out=True),
    Question("nycflights13", "What is the average air_time of flights with dest LAX?",
             "SELECT AVG(CAST(air_time AS REAL)) FROM flights WHERE dest = 'LAX'"),
    Question("nycflights13", "What was the total distance flown by JetBlue Airways flights?",
             "SELECT SUM(CAST(distance AS REAL)) FROM flights JOIN airlines USING (carrier) "
             "WHERE airlines.name = 'JetBlue Airways'"),
    Question("nycflights13",
             "How many hourly weather observations at LGA had visibility below 1 mile?",
             "SELECT COUNT(*) FROM weather WHERE origin = 'LGA' AND CAST(visib AS REAL) < 1"),
    Question("nycflights13", "How many flights did Ryanair fly?",
             "SELECT 'not in the table'", held_out=True),
    # lahman: the seasons 2016-2020 (Salaries hold 2016 only).
    Question("lahman", "In which city was Mookie Betts born?",
             "SELECT birthCity FROM People WHERE nameFirst = 'Mookie' AND nameLast = 'Betts'"),
    Question("lahman", "How many runs did the Houston Astros score in 2019?",
             "SELECT CAST(R AS INTEGER) FROM Teams "
             "WHERE name = 'Houston Astros' AND yearID = '2019'"),
    Question("lahman", "Which pitcher had the most strikeouts in 2018?",
             "SELECT nameFirst || ' ' || nameLast FROM Pitching JOIN People USING (playerID) "
             "WHERE Pitching.yearID = '2018' GROUP BY playerID "
             "ORDER BY SUM(CAST(SO AS INTEGER)) DESC LIMIT 1"),
    Question("lahman", "What was the total salary of the New York Yankees players in 2016?",
             "SELECT SUM(CAST(Salaries.salary AS INTEGER)) FROM Salaries JOIN Teams "
             "ON Teams.teamID = Salaries.teamID AND Teams.yearID = Salaries.yearID "
             "WHERE Teams.name = 'New York Yankees' AND Salaries.yearID = '2016'",
             held_out=True),
    Question("lahman", "Which team had the highest attendance in 2017?",
             "SELECT name FROM Teams WHERE yearID = '2017' "
             "ORDER BY CAST(attendance AS INTEGER) DESC LIMIT 1"),
    Question("lahman", "How many franchises are still active?",
             "SELECT COUNT(*) FROM TeamsFranchises WHERE active = 'Y'"),
    Question("lahman", "What was the average ERA of American League teams in 2020?",
             "SELECT AVG(CAST(ERA AS REAL)) FROM Teams WHERE yearID = '2020' AND lgID = 'AL'"),
    Question("lahman", "Which team won the World Series in 2019?",
             "SELECT Teams.name FROM SeriesPost JOIN Teams "
             "ON Teams.teamID = SeriesPost.teamIDwinner AND Teams.yearID = SeriesPost.yearID "
             "WHERE SeriesPost.round = 'WS' AND SeriesPost.yearID = '2019'", held_out=True),
    Question("lahman", "How many different birth countries are there among the people?",
             "SELECT COUNT(DISTINCT birthCountry) FROM People"),
    Question("lahman", "How many players hit more than 40 HR in 2019?",
             "SELECT COUNT(*) FROM (SELECT playerID FROM Batting WHERE yearID = '2019' "
             "GROUP BY playerID HAVING SUM(CAST(HR AS INTEGER)) > 40)"),
    Question("lahman", "Who managed the Boston Red Sox in 2018?",
             "SELECT nameFirst || ' ' || nameLast FROM Managers JOIN People USING (playerID) "
             "JOIN Teams ON Teams.teamID = Managers.teamID AND Teams.yearID = Managers.yearID "
             "WHERE Teams.name = 'Boston Red Sox' AND Managers.yearID = '2018'"),
    Question("lahman", "What was Mike Trout's salary in 2019?",
             "SELECT 'not in the table'", held_out=True),
]  # fmt: skip
