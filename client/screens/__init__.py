"""The screens of the window. A screen asks the app for the next one by name
(``Director.show``); none imports another."""
