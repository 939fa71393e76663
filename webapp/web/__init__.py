"""The routes: thin blueprints that turn requests into calls on the domain and answers drawn by the pages."""
